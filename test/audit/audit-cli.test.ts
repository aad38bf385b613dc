import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_JOURNAL_NAME, AuditTrail } from '../../kernel/audit/index.js';
import { rotatedFiles } from '../../sdk/journal/index.js';
import { loadKernelApi } from '../../cli/kernel.js';
import { CLI, pincer } from '../cli/helpers/built-cli.js';
import { runInProcess } from '../cli/helpers/capture.js';
import { waitFor } from '../redteam/helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'pincer-audit-cli-'));
const dir = path.join(root, 'trail');
// Small files, so the records below span a rotation and the reader must cross it.
const trail = () => new AuditTrail({ dir, name: AUDIT_JOURNAL_NAME, maxFileBytes: 4096, keepFiles: 10, warn: () => undefined });

beforeAll(async () => {
  const writer = trail();
  for (let i = 0; i < 40; i += 1) writer.record({ kind: 'plugin.state', plugin: `p${i}`, from: 'starting', to: 'ready', reason: 'x'.repeat(80) });
  writer.record({ kind: 'call.blocked', denied: true, agent: 'main', session: 'agent:main:main', tool: 'danger', plugin: 'guard', by: 'guard', code: 'HOOK_BLOCKED', reason: 'danger is not allowed here' });
  writer.record({ kind: 'approval.answered', tool: 'deploy', plugin: 'asks', by: 'asks', digest: `sha256:${'ab'.repeat(32)}`, answer: 'allow-once' });
  await writer.close();
  expect(rotatedFiles(dir, AUDIT_JOURNAL_NAME).length).toBeGreaterThan(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('pincer audit tail', () => {
  it('prints the last records oldest first across rotated files, marking what denied something', async () => {
    const tail = await pincer(['audit', 'tail', '-n', '3', '--dir', dir]);
    expect(tail.code).toBe(0);
    const lines = tail.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/plugin\.state +p39 starting → ready/);
    expect(lines[1]).toMatch(/^\S+ call\.blocked +danger \(guard\) HOOK_BLOCKED by guard: danger is not allowed here \[agent:main:main\]$/);
    expect(lines[2]).toMatch(/approval\.answered +deploy \(asks\) allow-once by asks sha256:abab/);
  });

  it('gives JSON, filters denials, reads the trail a config names, and says when there is none', async () => {
    const api = await loadKernelApi();
    const run = (argv: string[], cwd = root) => runInProcess(argv, api, { NO_COLOR: '1' }, cwd);
    expect(JSON.parse((await run(['audit', 'tail', '-n', '100', '--json', '--dir', dir])).stdout)).toHaveLength(42);
    const config = path.join(root, 'pincer.config.json');
    writeFileSync(config, JSON.stringify({ audit: { dir: 'trail' } })); // relative to the config file
    const denied = await run(['audit', 'tail', '--denied', '--json', '--config', config], tmpdir());
    expect(JSON.parse(denied.stdout)).toEqual([expect.objectContaining({ kind: 'call.blocked', denied: true, code: 'HOOK_BLOCKED' })]);
    writeFileSync(config, JSON.stringify({ audit: { enabled: false } }));
    const off = await run(['audit', 'tail', '--config', config]);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('the audit trail is off');
    const missing = await run(['audit', 'tail', '--dir', path.join(root, 'nowhere')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no audit trail in');
    expect((await run(['--help'])).stdout).toMatch(/^ {2}audit +Show the kernel's audit trail of decisions \(tail\)$/m);
  });

  it('follows new records as kernels append them, across a rotation, as JSON lines', async () => {
    const child = spawn(process.execPath, [CLI, 'audit', 'tail', '--follow', '--json', '-n', '1', '--dir', dir], { env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      await waitFor('the first tail', () => stdout.includes('allow-once'), 15_000);
      const before = rotatedFiles(dir, AUDIT_JOURNAL_NAME).length;
      const writer = trail();
      for (let i = 0; i < 60; i += 1) writer.record({ kind: 'call.refused', denied: true, tool: `t${i}`, code: 'APPROVAL_DENIED', reason: 'y'.repeat(80) });
      await writer.close();
      expect(rotatedFiles(dir, AUDIT_JOURNAL_NAME).length).toBeGreaterThan(before);
      await waitFor('the followed records', () => stdout.includes('"t59"'), 15_000);
      const followed = stdout.trim().split('\n').map((line) => JSON.parse(line) as { tool?: string }).slice(1);
      expect(followed.map((r) => r.tool)).toEqual(Array.from({ length: 60 }, (_, i) => `t${i}`));
    } finally {
      child.kill('SIGTERM');
    }
  });
});
