import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_JOURNAL_NAME, AuditTrail, createAuditTrail } from '../../kernel/audit/index.js';
import { journalFiles, parseLines } from '../../sdk/journal/index.js';

const root = mkdtempSync(path.join(tmpdir(), 'pincer-audit-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const trailIn = (dir: string, maxFileBytes = 1 << 20, keepFiles = 5) =>
  new AuditTrail({ dir, name: AUDIT_JOURNAL_NAME, maxFileBytes, keepFiles, warn: (message) => { throw new Error(message); } });
const readAll = (dir: string) => journalFiles(dir, AUDIT_JOURNAL_NAME).flatMap((file) => parseLines(readFileSync(file, 'utf8')).records as { reason?: string; kind: string }[]);

describe('the audit trail file', () => {
  it('rotates by size, keeps only keepFiles rotated files, and loses no record of the ones kept', async () => {
    const dir = path.join(root, 'rotation');
    const trail = trailIn(dir, 4096, 2);
    for (let i = 0; i < 200; i += 1) trail.record({ kind: 'call.blocked', denied: true, tool: 'danger', code: 'HOOK_BLOCKED', reason: `attempt ${i} ${'x'.repeat(60)}` });
    await trail.close();
    const names = readdirSync(dir).filter((name) => name.endsWith('.jsonl')).sort();
    expect(names).toHaveLength(3); // the active file and the two newest rotated ones
    expect(names).toContain('audit.jsonl');
    for (const name of names) expect(statSync(path.join(dir, name)).size).toBeLessThanOrEqual(4096);
    const reasons = readAll(dir).map((r) => Number(r.reason!.split(' ')[1]));
    // What is left is the newest run of records, in order, with no gap.
    expect(reasons.at(-1)).toBe(199);
    expect(reasons).toEqual(reasons.map((_, i) => reasons[0] + i));
    expect(readdirSync(dir).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });

  it('keeps every record, whole, when two kernels append to and rotate one file', async () => {
    const dir = path.join(root, 'shared');
    const [a, b] = [trailIn(dir, 8192, 100), trailIn(dir, 8192, 100)];
    for (let i = 0; i < 300; i += 1) {
      (i % 2 ? a : b).record({ kind: 'call.refused', denied: true, tool: i % 2 ? 'a' : 'b', code: 'APPROVAL_DENIED', reason: `n${i}` });
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve)); // let the other one's flushes interleave
    }
    await Promise.all([a.close(), b.close()]);
    const files = journalFiles(dir, AUDIT_JOURNAL_NAME);
    expect(files.length).toBeGreaterThan(2); // both rotated, neither lost the other's file
    expect(files.map((file) => parseLines(readFileSync(file, 'utf8')).corrupt)).toEqual(files.map(() => 0));
    expect(readAll(dir).map((r) => r.reason).sort()).toEqual(Array.from({ length: 300 }, (_, i) => `n${i}`).sort());
  });

  it('queues what denied nothing and writes it on a later turn, never inside the call that decided it', async () => {
    const dir = path.join(root, 'queued');
    const trail = trailIn(dir);
    expect(trail.record({ kind: 'plugin.state', plugin: 'p', from: 'starting', to: 'ready' })).toBeUndefined();
    expect(trail.pending).toBe(1);
    expect(journalFiles(dir, AUDIT_JOURNAL_NAME)).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(trail.pending).toBe(0);
    expect(readAll(dir)).toMatchObject([{ kind: 'plugin.state', plugin: 'p' }]);
    await trail.close();
    expect(statSync(trail.file!).mode & 0o777).toBe(0o600);
  });

  it('writes what is still queued when the process exits before the next turn', () => {
    const dir = path.join(root, 'exit');
    const trailModule = path.resolve(import.meta.dirname, '../../dist/kernel/audit/index.js');
    const script = `const { createAuditTrail } = await import(${JSON.stringify(trailModule)});
      createAuditTrail({ dir: ${JSON.stringify(dir)} }, { cwd: '/', warn: () => {} }).record({ kind: 'plugin.state', plugin: 'late', from: 'ready', to: 'stopping' });
      process.exit(0);`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script]);
    expect(readAll(dir)).toMatchObject([{ kind: 'plugin.state', plugin: 'late' }]);
  });

  it('writes nothing when the config turns it off', async () => {
    const trail = createAuditTrail({ enabled: false }, { cwd: root, warn: () => undefined });
    expect(trail.file).toBeUndefined();
    expect(trail.record({ kind: 'call.blocked', denied: true, code: 'HOOK_BLOCKED' })).toBeUndefined();
    await trail.close();
    expect(createAuditTrail({ dir: 'rel' }, { cwd: root, warn: () => undefined }).file).toBe(path.join(root, 'rel', 'audit.jsonl'));
  });
});
