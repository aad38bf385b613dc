import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../../kernel/index.js';
import { ProtocolErrorCodes } from '../../protocol/index.js';
import { fixture, plugin, scratch, text, waitFor } from './helpers.js';

// The direct channel from a tool plugin's side, as a hostile plugin would use it: a probe
// plugin (real process) that sends raw frames on the backend's socket with its own grant or
// with any field swapped, against the real local backend, confined where bubblewrap runs.
const root = scratch('direct-channel');
const wsA = path.join(root, 'a');
const wsB = path.join(root, 'b');
const outside = path.join(root, 'outside.txt');
let kernel: Kernel;

type Answer = { result?: { content?: string }; error?: { code: number; message: string; data?: { code?: string } } };

const run = (agentId: string) => kernel.assembleTools({ agentId, sessionKey: 'main' });
const call = async (agentId: string, tool: string, params: Record<string, unknown> = {}) => text(await run(agentId).execute(tool, params));
/** The JSON-RPC answer, or what the socket did instead (`SOCKET ERROR …`, `CLOSED`) as `{ refused }`. */
const direct = async (agentId: string, params: Record<string, unknown>): Promise<Answer & { refused?: string }> => {
  const answer = await call(agentId, 'direct', params);
  return answer.startsWith('{') ? (JSON.parse(answer) as Answer) : { refused: answer };
};
const rows = async () => {
  await kernel.audit.flush();
  return readFileSync(kernel.audit.file!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
};
/** A grant is made once the session is prepared: the first read prepares it. */
const channelOf = async (agentId: string) => {
  await call(agentId, 'peek', { path: 'secret.txt' });
  return JSON.parse(await call(agentId, 'channel')) as { socket: string; plugin: string; grant: string } | null;
};

beforeAll(async () => {
  mkdirSync(wsA, { recursive: true });
  mkdirSync(wsB, { recursive: true });
  writeFileSync(path.join(wsA, 'secret.txt'), 'A-secret');
  writeFileSync(path.join(wsB, 'secret.txt'), 'B-data');
  writeFileSync(outside, 'outside');
  kernel = createKernel(
    {
      plugins: [
        { id: 'reader', module: fixture('session-probe'), env: { PINCER_PLUGIN_ID: 'reader' } },
        { id: 'spy', module: fixture('session-probe'), env: { PINCER_PLUGIN_ID: 'spy' } },
        { id: 'sandbox-local', module: plugin('sandbox-local') },
      ],
      agents: { list: [{ id: 'A', workspace: wsA, plugins: ['reader', 'sandbox-local'] }, { id: 'B', workspace: wsB, plugins: ['spy', 'sandbox-local'] }] },
      audit: { dir: path.join(root, 'trail') },
    },
    { cwd: root, logger: () => undefined },
  );
  await kernel.start();
});

afterAll(() => kernel.stop());

describe('the direct channel serves a session only with the grant the kernel made for it', () => {
  it('gives no grant before the session is prepared, then one that reads the session', async () => {
    expect(JSON.parse(await call('A', 'channel'))).toBeNull();
    const channel = await channelOf('A');
    expect(channel).toMatchObject({ plugin: 'reader' });
    expect((await direct('A', { params: { path: 'secret.txt' } })).result?.content).toBe('A-secret');
    // The SDK's own reads take the same road and answer the same.
    expect(await call('A', 'peek', { path: 'secret.txt' })).toBe('A-secret');
  });

  it('refuses a grant for another session, another plugin, or none that verifies', async () => {
    await channelOf('A');
    await channelOf('B');
    const spySession = await call('B', 'whoami');
    const refused = ProtocolErrorCodes.DirectGrantRefused;
    const attempts: Record<string, unknown>[] = [
      { session: spySession }, // reader's grant on B's session
      { plugin: 'spy' }, // reader's grant, claimed for the plugin that served B
      { grant: 'A'.repeat(43) },
      { grant: '' },
      { grant: 42 },
      { session: null, grant: null, plugin: null },
      { session: '__proto__' },
    ];
    for (const params of attempts) {
      const answer = await direct('A', { params: { path: 'secret.txt', ...params } });
      expect(answer.error?.code, JSON.stringify(params)).toBe(refused);
      expect(JSON.stringify(answer)).not.toContain('B-data');
    }
    // B's spy, with its own grant, reads B and only B.
    expect((await direct('B', { params: { path: 'secret.txt' } })).result?.content).toBe('B-data');
  });

  it('serves no operation that changes anything, under any name', async () => {
    await channelOf('A');
    for (const method of ['direct/write', 'direct/remove', 'direct/exec', 'sandbox/write', 'sandbox/prepare', 'sandbox/exec', 'workspace/write', '$/shutdown']) {
      const answer = await direct('A', { method, params: { path: 'planted.txt', content: 'x', command: 'touch planted2' } });
      expect(answer.error?.code, method).toBe(-32601);
    }
    expect(() => readFileSync(path.join(wsA, 'planted.txt'))).toThrow();
    expect(() => readFileSync(path.join(wsA, 'planted2'))).toThrow();
  });

  it('runs the path guard, and puts a refusal on record before the plugin hears it', async () => {
    await channelOf('A');
    const handle = await call('A', 'whoami');
    for (const target of ['../outside.txt', outside, '../b/secret.txt']) {
      const answer = await direct('A', { params: { path: target } });
      expect(answer.error?.code, target).toBe(ProtocolErrorCodes.WorkspaceError);
      expect(answer.error?.data?.code).toMatch(/^PATH_(OUTSIDE_MOUNT|NOT_ADMITTED)$/);
      // Through the kernel, the same read is refused with the same code, in the same words.
      const routed = await call('A', 'peek', { path: target, session: handle });
      expect(routed).toBe(`ERROR ${answer.error!.data!.code}: ${answer.error!.message}`);
    }
    // The answer came after the record: it is in the trail already, naming the plugin and operation.
    const refusals = (await rows()).filter((r) => r.kind === 'sandbox.refused' && r.plugin === 'reader');
    expect(refusals.length).toBeGreaterThanOrEqual(6);
    expect(refusals[0]).toMatchObject({ backend: 'sandbox-local', agent: 'A', operation: 'read', code: expect.stringMatching(/^PATH_/) });
  });

  it('drops a connection that sends garbage, and keeps serving the next one', async () => {
    await channelOf('A');
    expect(await call('A', 'direct', { frame: 'this is not json' })).toMatch(/CLOSED|"code":-32700/);
    expect(await call('A', 'direct', { frame: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'direct/read', params: [1, 2] }) })).toContain(String(ProtocolErrorCodes.DirectGrantRefused));
    expect((await direct('A', { params: { path: 'secret.txt' } })).result?.content).toBe('A-secret');
  });

  it('answers 200 concurrent reads, past the per-connection limit, through one road or the other', async () => {
    await channelOf('A');
    const tools = run('A');
    const answers = await Promise.all(Array.from({ length: 200 }, () => tools.execute('peek', { path: 'secret.txt' }).then(text)));
    expect(new Set(answers)).toEqual(new Set(['A-secret']));
  });

  it('voids every grant when the backend restarts, and reads go on through the kernel until the next grant', async () => {
    const before = await channelOf('A');
    const backend = kernel.plugins().find((p) => p.id === 'sandbox-local')!;
    process.kill(backend.pid!, 'SIGKILL');
    await waitFor('the backend to restart', () => {
      const now = kernel.plugins().find((p) => p.id === 'sandbox-local')!;
      return now.state === 'ready' && now.pid !== backend.pid;
    });
    // The old grant, sent to the new process, opens nothing.
    // (The new process listens once a session is prepared in it: until then nobody answers.)
    const stale = await direct('A', { socket: before!.socket, params: { plugin: before!.plugin, grant: before!.grant } });
    expect(stale.result).toBeUndefined();
    expect(stale.error?.code ?? stale.refused).toBeDefined();
    // The SDK falls back, the kernel prepares the session again, and a new grant follows.
    expect(await call('A', 'peek', { path: 'secret.txt' })).toBe('A-secret');
    const after = JSON.parse(await call('A', 'channel')) as { grant: string } | null;
    expect(after?.grant).toBeDefined();
    expect(after!.grant).not.toBe(before!.grant);
    // Now the new process listens: the old grant is refused there too.
    const refused = await direct('A', { socket: before!.socket, params: { plugin: before!.plugin, grant: before!.grant } });
    expect(refused.error?.code).toBe(ProtocolErrorCodes.DirectGrantRefused);
    expect((await direct('A', { params: { path: 'secret.txt' } })).result?.content).toBe('A-secret');
  });
});
