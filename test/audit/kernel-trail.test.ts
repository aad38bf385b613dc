import * as fs from 'node:fs';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKernel, type Kernel, type ToolSet } from '../../kernel/index.js';
import { fixture, plugin, scratch } from '../redteam/helpers.js';

// Every fdatasync the kernel starts, with how far the file it flushed reached then, and
// whether it finished: what proves a denial was on disk before its call returned.
const syncs = vi.hoisted(() => [] as { ino: number; coveredBytes: number; done: boolean }[]);
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const fdatasync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    const stat = real.fstatSync(fd);
    const entry = { ino: stat.ino, coveredBytes: stat.size, done: false };
    syncs.push(entry);
    real.fdatasync(fd, (error) => {
      entry.done = !error;
      callback(error);
    });
  }) as typeof real.fdatasync;
  return { ...real, fdatasync, default: { ...real, fdatasync } };
});

/**
 * One kernel, real plugin processes, a few calls: each kind of decision lands in the trail as
 * one record of identifiers, codes and a redacted reason.
 */
const root = scratch('audit-kernel');
const ws = path.join(root, 'ws');
const trailDir = path.join(root, 'trail');
const SECRET = 'sk-live0123456789abcdefXYZ';
const answers: string[] = [];
const asked: { digest: string }[] = [];
let kernel: Kernel;
let tools: ToolSet;

type Row = Record<string, unknown> & { kind: string };
const rows = async (): Promise<Row[]> => {
  await kernel.audit.flush();
  return readFileSync(kernel.audit.file!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Row);
};

beforeAll(async () => {
  mkdirSync(ws, { recursive: true });
  const manifest = path.join(root, 'probe.json');
  writeFileSync(manifest, JSON.stringify({ id: 'probe', version: '1.0.0', protocolVersion: 1, contributes: { tools: [], sandboxBackends: [], skillSources: [], hooks: [] }, confinement: { filesystem: [], network: 'none', spawn: false, env: [] } }));
  kernel = createKernel(
    {
      plugins: [
        { id: 'quotes-params', module: fixture('quotes-params-in-block') },
        { id: 'asks-approval', module: fixture('asks-approval') },
        { id: 'crash', module: fixture('crash-mid-call') },
        { id: 'probe', module: fixture('confine-probe'), manifest },
        { id: 'fs', module: plugin('fs') },
        { id: 'sandbox-local', module: plugin('sandbox-local') },
      ],
      tools: { deny: ['ok'] },
      agents: { list: [{ id: 'main', workspace: ws }, { id: 'other', workspace: ws, tools: { deny: ['deploy'] } }] },
      audit: { dir: trailDir },
    },
    {
      cwd: root,
      logger: () => undefined,
      approvalSurface: { request: async (request) => (asked.push(request), answers.shift() as 'deny') },
    },
  );
  await kernel.start();
  tools = kernel.assembleTools({ agentId: 'main' });
}, 60_000);

afterAll(() => kernel?.stop());

describe('the kernel audit trail', () => {
  it('records a policy removal once per agent and rule, with the rule that removed it', async () => {
    const removals = (await rows()).filter((r) => r.kind === 'policy.removed');
    expect(removals).toEqual([expect.objectContaining({ agent: 'main', layer: 'global', rule: 'tools.deny', matched: ['ok'], tools: ['ok'], count: 1, code: 'TOOL_REMOVED' })]);
  });

  it('queues nothing and writes nothing when a run shape already seen is assembled again', async () => {
    await kernel.audit.flush();
    const size = statSync(kernel.audit.file!).size;
    kernel.assembleTools({ agentId: 'main', sessionKey: 'another-session' });
    expect(kernel.audit.pending).toBe(0);
    await kernel.audit.flush();
    expect(statSync(kernel.audit.file!).size).toBe(size);
    // The control: a new shape is queued, and assembly still does not touch the file itself.
    kernel.assembleTools({ agentId: 'other' });
    expect(kernel.audit.pending).toBe(1);
    expect(statSync(kernel.audit.file!).size).toBe(size);
    expect((await rows()).filter((r) => r.kind === 'policy.removed' && r.agent === 'other').map((r) => r.tools)).toEqual([['ok'], ['deploy']]);
  });

  it('records a hook block with the blocking plugin, the secret in its reason redacted', async () => {
    const result = await tools.execute('publish', { note: `key ${SECRET} ok` });
    expect(result.outcome).toBe('blocked');
    const block = (await rows()).find((r) => r.kind === 'call.blocked');
    expect(block).toMatchObject({ denied: true, agent: 'main', session: 'agent:main:main', tool: 'publish', plugin: 'quotes-params', by: 'quotes-params', code: 'HOOK_BLOCKED' });
    expect(block!.reason).toContain('[redacted]');
    expect(readFileSync(kernel.audit.file!, 'utf8')).not.toContain(SECRET);
  });

  it('has a denial on disk, flushed, before the call that was denied returns', async () => {
    const result = await tools.execute('publish', { note: 'second' });
    expect(result.outcome).toBe('blocked');
    // No flush() here: what is in the file now was written by the call itself.
    const text = readFileSync(kernel.audit.file!, 'utf8');
    const end = text.indexOf('\n', text.indexOf('second')) + 1;
    expect(end).toBeGreaterThan(0);
    const ino = statSync(kernel.audit.file!).ino;
    expect(syncs.some((s) => s.ino === ino && s.done && s.coveredBytes >= end)).toBe(true);
  });

  it('records an approval asked for and each answer, bound to the digest the operator saw', async () => {
    answers.push('allow-once', 'deny');
    expect((await tools.execute('deploy', { target: 'staging' })).outcome).toBe('ok');
    expect((await tools.execute('deploy', { target: 'prod' })).outcome).toBe('denied');
    const all = await rows();
    const [first, second] = asked;
    expect(all.filter((r) => r.kind === 'approval.requested').map((r) => r.digest)).toEqual([first.digest, second.digest]);
    expect(all.filter((r) => r.kind === 'approval.answered')).toEqual([
      expect.objectContaining({ tool: 'deploy', by: 'asks-approval', digest: first.digest, answer: 'allow-once' }),
      expect.objectContaining({ denied: true, digest: second.digest, answer: 'deny' }),
    ]);
    expect(all.find((r) => r.kind === 'approval.answered' && r.answer === 'allow-once')).not.toHaveProperty('denied');
    expect(all.find((r) => r.kind === 'call.refused')).toMatchObject({ denied: true, tool: 'deploy', code: 'APPROVAL_DENIED' });
    expect(JSON.stringify(all)).not.toContain('prod'); // the params stay out; the digest names them
  });

  it('records a sandbox refusal with the backend that refused it', async () => {
    const result = await tools.execute('write', { path: '.pincer/evil.txt', content: 'x' });
    expect(result.code).toBe('PROTECTED_PATH');
    expect((await rows()).find((r) => r.kind === 'sandbox.refused')).toMatchObject({
      denied: true, plugin: 'fs', backend: 'sandbox-local', agent: 'main', session: 'agent:main:main', operation: 'write', code: 'PROTECTED_PATH',
    });
  });

  it.skipIf(process.platform !== 'linux')('records a confinement denial naming the plugin and what it tried', async () => {
    const result = await tools.execute('probe_probe', { op: 'read', target: '/etc/hostname' });
    expect(result.code).toBe('CONFINEMENT_DENIED');
    const denial = (await rows()).find((r) => r.kind === 'confinement.denied');
    expect(denial).toMatchObject({ denied: true, plugin: 'probe', tool: 'probe_probe', agent: 'main', session: 'agent:main:main', code: 'CONFINEMENT_DENIED' });
    expect(denial!.reason).toMatch(/plugin "probe" tried to reach \/etc\/hostname/);
  });

  it('records a plugin crash as a state change with its error', async () => {
    expect((await tools.execute('boom', {})).code).toBe('PLUGIN_CRASHED');
    const crash = (await rows()).find((r) => r.kind === 'plugin.state' && r.plugin === 'crash' && r.to === 'restarting');
    expect(crash).toMatchObject({ from: 'ready', code: 'PLUGIN_CRASHED' });
    expect(crash).not.toHaveProperty('denied');
  });
});
