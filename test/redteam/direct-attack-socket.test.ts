/**
 * ATTACK: the direct channel (docs/protocol.md, "Direct channel") from a hostile tool plugin's
 * process and from a hostile second backend plugin. The claim under test: a plugin reaches
 * exactly the sessions it could reach through the kernel, nothing changes through the socket,
 * a refusal is on the audit trail before the plugin hears it, and a plugin can break only
 * itself (protocol.md section 8), not the backend every agent shares.
 *
 * `hostile` (test/redteam/fixtures-direct/hostile/plugin.mjs, SDK-free) runs confined under
 * bubblewrap when it is usable; the test process stands in for an unconfined plugin (it is one:
 * same user, the grant the kernel handed the plugin).
 *
 * Every test asserts the SAFE behaviour: a failing test is a hole.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../../kernel/index.js';
import { ProtocolErrorCodes } from '../../protocol/index.js';
import { ROOT, fixture, plugin, scratch, text, waitFor } from './helpers.js';

const hostileModule = path.join(ROOT, 'test/redteam/fixtures-direct/hostile/plugin.mjs');
const hostileManifest = path.join(ROOT, 'test/redteam/fixtures-direct/hostile/confined.json');
const HAS_BWRAP = (() => {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--unshare-user', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const root = scratch('direct-attack-socket');
const wsA = path.join(root, 'a');
const wsC = path.join(root, 'c');
const logs: string[] = [];
let kernel: Kernel;

type Channel = { socket: string; plugin: string; grant: string };
const call = async (agentId: string, tool: string, params: Record<string, unknown> = {}) =>
  text(await kernel.assembleTools({ agentId, sessionKey: 'main' }).execute(tool, params));
const grantOf = async (agentId: string): Promise<{ sessionKey: string; workspaceChannel: Channel | null }> => {
  await call(agentId, 'peek', { path: 'secret.txt' }); // prepares the session
  const answer = await call(agentId, 'grant');
  expect(answer, 'the hostile plugin answers its grant tool').toMatch(/^\{/);
  return JSON.parse(answer) as { sessionKey: string; workspaceChannel: Channel | null };
};
const rows = async () => {
  await kernel.audit.flush();
  return readFileSync(kernel.audit.file!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
};
const frame = (id: number | string, method: string, params: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** Resident memory of a process and its descendants (the backend runs under bwrap), in MiB. */
function treeRssMiB(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        for (const c of children ? children.split(/\s+/) : []) visit(Number(c));
      }
    } catch {
      // gone
    }
  };
  visit(pid);
  return total / 1024;
}
const backendPid = () => kernel.plugins().find((p) => p.id === 'sandbox-local')!.pid!;

/** One raw connection from this process, as an unconfined plugin holding the grant would open it. */
function rawRead(socket: string, channel: Channel, session: string, p: string): Promise<{ result?: { content?: string }; error?: { code: number; data?: { code?: string } } }> {
  return new Promise((resolve, reject) => {
    const conn = net.connect(socket);
    let buffer = '';
    conn.on('error', reject);
    conn.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const nl = buffer.indexOf('\n');
      if (nl >= 0) {
        conn.destroy();
        resolve(JSON.parse(buffer.slice(0, nl)));
      }
    });
    conn.write(frame(1, 'direct/read', { session, plugin: channel.plugin, grant: channel.grant, path: p }) + '\n');
  });
}

beforeAll(async () => {
  mkdirSync(wsA, { recursive: true });
  mkdirSync(wsC, { recursive: true });
  writeFileSync(path.join(wsA, 'secret.txt'), 'A-secret');
  writeFileSync(path.join(wsA, 'big.bin'), Buffer.alloc(4 * 1024 * 1024, 0x61)); // 4 MiB: under the 8 MiB message cap
  writeFileSync(path.join(wsC, 'secret.txt'), 'C-data');
  kernel = createKernel(
    {
      plugins: [
        { id: 'reader', module: fixture('session-probe'), env: { PINCER_PLUGIN_ID: 'reader' } },
        { id: 'hostile', module: hostileModule, manifest: hostileManifest, env: { PINCER_PLUGIN_ID: 'hostile' } },
        { id: 'evilbackend', module: hostileModule, env: { PINCER_PLUGIN_ID: 'evilbackend' }, settings: { backend: 'evil', prefix: 'evil_' } },
        { id: 'sandbox-local', module: plugin('sandbox-local') },
      ],
      agents: {
        list: [
          { id: 'A', workspace: wsA, plugins: ['reader', 'hostile', 'evilbackend', 'sandbox-local'] },
          { id: 'C', workspace: wsC, plugins: ['evilbackend'], sandbox: { mode: 'all', backend: 'evil' } },
        ],
      },
      audit: { dir: path.join(root, 'trail') },
    } as never,
    { cwd: root, logger: (entry) => logs.push(JSON.stringify(entry)) },
  );
  await kernel.start();
}, 60_000);

afterAll(() => kernel?.stop());

describe('a confined tool plugin and the socket directory', () => {
  it.runIf(HAS_BWRAP)('can connect and read its own session with its grant (the channel works confined)', async () => {
    const { sessionKey, workspaceChannel } = await grantOf('A');
    expect(workspaceChannel?.plugin).toBe('hostile');
    const answers = JSON.parse(await call('A', 'probe', { frames: [frame(1, 'direct/read', { session: sessionKey, plugin: 'hostile', grant: workspaceChannel!.grant, path: 'secret.txt' })] })) as string[] | string;
    expect(Array.isArray(answers), String(answers)).toBe(true);
    expect(JSON.parse((answers as string[])[0]!).result.content).toBe('A-secret');
  });

  it.runIf(HAS_BWRAP)('cannot unlink, move, plant or re-bind the backend socket, and the reader still reads the true file', async () => {
    await grantOf('A');
    const outcome = JSON.parse(await call('A', 'tamper')) as string[];
    for (const line of outcome) expect(line, line).not.toMatch(/: DONE$/);
    // The reader's direct read still reaches the real backend.
    const reader = JSON.parse(await call('A', 'channel')) as Channel;
    expect(reader.socket).toBe(JSON.parse(await call('A', 'grant')).workspaceChannel.socket);
    expect((JSON.parse(await call('A', 'direct', { params: { path: 'secret.txt' } })) as { result: { content: string } }).result.content).toBe('A-secret');
    await call('A', 'drop');
  });
});

describe('grants stay where they were sent', () => {
  it('no grant appears in the kernel log or on the audit trail, even after refusals and failures', async () => {
    const { workspaceChannel } = await grantOf('A');
    const reader = JSON.parse(await call('A', 'channel')) as Channel;
    // Make some noise: refusals (direct and routed), a bogus frame, a forged report.
    await call('A', 'direct', { params: { path: '../escape' } });
    await call('A', 'peek', { path: '../escape' });
    await call('A', 'direct', { frame: 'garbage' });
    await call('A', 'forge', { session: 'x', plugin: 'reader', operation: 'read', code: 'PATH_OUTSIDE_MOUNT', message: reader.grant });
    const trail = readFileSync(kernel.audit.file!, 'utf8');
    for (const grant of [workspaceChannel!.grant, reader.grant]) {
      expect(logs.join('\n')).not.toContain(grant);
      expect(trail).not.toContain(grant);
    }
  });
});

describe('the path guard and the audit trail on every direct operation', () => {
  it('refuses stat and readDirectory outside the workspace, and each refusal is on record before the answer', async () => {
    const { sessionKey } = await grantOf('A');
    const before = (await rows()).filter((r) => r.kind === 'sandbox.refused' && r.plugin === 'reader').length;
    const tries: [string, Record<string, unknown>][] = [
      ['direct/stat', { path: '..' }],
      ['direct/stat', { path: '/etc/passwd' }],
      ['direct/readDirectory', { path: '..' }],
      ['direct/readDirectory', { path: '/' }],
      ['direct/read', { path: '/proc/self/environ' }],
    ];
    for (const [method, params] of tries) {
      const answer = JSON.parse(await call('A', 'direct', { method, params: { session: sessionKey, ...params } })) as { result?: unknown; error?: { code: number; data?: { code?: string } } };
      expect(answer.result, method + JSON.stringify(params)).toBeUndefined();
      expect(answer.error?.code).toBe(ProtocolErrorCodes.WorkspaceError);
      expect(answer.error?.data?.code).toMatch(/^PATH_/);
    }
    const after = (await rows()).filter((r) => r.kind === 'sandbox.refused' && r.plugin === 'reader');
    expect(after.length - before).toBe(tries.length);
    expect(after.map((r) => r.operation)).toEqual(expect.arrayContaining(['stat', 'readDirectory', 'read']));
  });

  it('a second backend plugin cannot put a forged refusal on the trail for a session it does not serve', async () => {
    const { sessionKey } = await grantOf('A'); // the handle of A's session, served by sandbox-local
    const before = (await rows()).length;
    // evilbackend declares a backend of its own (agent C's); it is called here for A's session, as a tool plugin.
    const forged = await call('A', 'evil_forge', { session: sessionKey, plugin: 'reader', operation: 'read', code: 'PATH_OUTSIDE_MOUNT', message: 'FORGED-BY-EVIL' });
    expect(forged).toMatch(/error/);
    const trail = await rows();
    expect(trail.slice(before).some((r) => String(r.reason ?? '').includes('FORGED-BY-EVIL'))).toBe(false);
  });
});

describe('a plugin can break only itself: the shared backend under a flood', () => {
  it('keeps serving other plugins while one holds more connections than the socket admits', async () => {
    const { workspaceChannel } = await grantOf('A');
    const held = Number(await call('A', 'hoard', { count: 80, socket: workspaceChannel!.socket }));
    expect(held).toBeGreaterThan(0);
    // The reader's reads still answer the true content (directly or through the kernel).
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('A', 'peek', { path: 'secret.txt' })));
    expect(new Set(answers)).toEqual(new Set(['A-secret']));
    await call('A', 'drop');
  });

  it('does not buffer without bound for a connection that never reads its answers', async () => {
    await call('A', 'peek', { path: 'secret.txt' });
    const reader = JSON.parse(await call('A', 'channel')) as Channel;
    const session = await call('A', 'whoami');
    const pid = backendPid();
    const baseline = treeRssMiB(pid);
    // One connection that never reads: 5 rounds of 40 reads of a 4 MiB file, each round under
    // the 64-in-flight cap and answered (into the socket) before the next; 800 MiB of answers.
    const conn = net.connect(reader.socket);
    conn.pause();
    conn.on('error', () => undefined);
    await new Promise<void>((resolve) => conn.once('connect', () => resolve()));
    let peak = baseline;
    for (let round = 0; round < 5; round++) {
      conn.write(Array.from({ length: 40 }, (_, i) => frame(round * 100 + i, 'direct/read', { session, plugin: reader.plugin, grant: reader.grant, path: 'big.bin' })).join('\n') + '\n');
      for (let t = 0; t < 10; t++) {
        await new Promise((r) => setTimeout(r, 150));
        peak = Math.max(peak, treeRssMiB(pid));
      }
      if (peak - baseline > 700) break;
    }
    // Every answer is written by now; what the backend still holds is what it buffers for us.
    await new Promise((r) => setTimeout(r, 2_000));
    const settled = treeRssMiB(pid);
    conn.destroy();
    // A backend that keeps every answer for a reader that never comes holds ~800 MiB here;
    // one that stops reading a connection whose answers pile up (backpressure), or drops it, does not.
    expect(settled - baseline, `backend: ${baseline.toFixed(0)} MiB before, peak ${peak.toFixed(0)}, ${settled.toFixed(0)} MiB with the answers unread`).toBeLessThan(150);
    // And it still serves.
    expect(await call('A', 'peek', { path: 'secret.txt' })).toBe('A-secret');
  }, 60_000);

  it('does not buffer without bound for a frame that never ends', async () => {
    await call('A', 'peek', { path: 'secret.txt' });
    const reader = JSON.parse(await call('A', 'channel')) as Channel;
    const pid = backendPid();
    const baseline = treeRssMiB(pid);
    const conn = net.connect(reader.socket);
    conn.on('error', () => undefined);
    await new Promise<void>((resolve) => conn.once('connect', () => resolve()));
    const chunk = Buffer.alloc(1024 * 1024, 0x78);
    let closed = false;
    conn.on('close', () => (closed = true));
    for (let i = 0; i < 64 && !closed; i++) {
      if (!conn.write(chunk)) await new Promise((r) => conn.once('drain', r).once('close', r));
    }
    const grown = treeRssMiB(pid) - baseline;
    conn.destroy();
    expect(grown, `backend grew ${grown.toFixed(0)} MiB`).toBeLessThan(64);
    expect(await call('A', 'peek', { path: 'secret.txt' })).toBe('A-secret');
  }, 60_000);

  it('the backend process survives it all (no restart: no session lost its grants)', async () => {
    const status = kernel.plugins().find((p) => p.id === 'sandbox-local')!;
    expect(status.state).toBe('ready');
    expect(status.restarts).toBe(0);
    // The attacker never crashed either: every refusal above was an answer, not a restart.
    expect(kernel.plugins().find((p) => p.id === 'hostile')!.restarts).toBe(0);
    await waitFor('reads to answer', async () => (await call('A', 'peek', { path: 'secret.txt' })) === 'A-secret');
  });
});

describe('a grant taken by another process', () => {
  it('reads exactly the session it names, and nothing once the path leaves the workspace', async () => {
    await call('A', 'peek', { path: 'secret.txt' });
    const reader = JSON.parse(await call('A', 'channel')) as Channel;
    const session = await call('A', 'whoami');
    expect((await rawRead(reader.socket, reader, session, 'secret.txt')).result?.content).toBe('A-secret');
    const escaped = await rawRead(reader.socket, reader, session, '../c/secret.txt');
    expect(escaped.result).toBeUndefined();
    expect(escaped.error?.code).toBe(ProtocolErrorCodes.WorkspaceError);
  });
});
