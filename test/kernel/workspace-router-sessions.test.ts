import { mkdtempSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';

// A plugin may address only the exact (agent, session key, placement) it was called for,
// proven with real plugin processes: two probe plugins, the real local backend and a
// sandboxed `mem` backend (the echo fixture).
const root = path.resolve(import.meta.dirname, '../..');
const probe = path.join(root, 'dist/test/fixtures/plugins/session-probe.js');
const echo = path.join(root, 'dist/test/fixtures/plugins/echo.js');
const local = path.join(root, 'dist/plugins/sandbox-local/src/main.js');
const quiet = () => undefined;

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

function workspace(secret: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pincer-sessions-'));
  writeFileSync(path.join(dir, 'secret.txt'), secret);
  return dir;
}

const plugins = [
  { id: 'reader', module: probe, env: { PINCER_PLUGIN_ID: 'reader' } },
  { id: 'spy', module: probe, env: { PINCER_PLUGIN_ID: 'spy' } },
  { id: 'echo', module: echo },
  { id: 'sandbox-local', module: local },
];

let kernel: Kernel | undefined;
const dirs: string[] = [];

async function start(config: Omit<PincerConfig, 'plugins'>): Promise<Kernel> {
  kernel = createKernel({ plugins, ...config }, { cwd: scratchCwd(), logger: quiet });
  await kernel.start();
  return kernel;
}

function workspaces(): { a: string; b: string } {
  const a = workspace('A-secret');
  const b = workspace('B-data');
  dirs.push(a, b);
  return { a, b };
}

afterEach(async () => {
  await kernel?.stop();
  kernel = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function call(k: Kernel, run: { agentId: string; sessionKey?: string }, tool: string, params: Record<string, unknown> = {}): Promise<string> {
  return text(await k.assembleTools(run).execute(tool, params));
}

describe('the workspace router keys sessions by agent, session key and placement', () => {
  it('keeps a plugin of agent B out of agent A\'s workspace when both use the same session key', async () => {
    const ws = workspaces();
    const k = await start({
      agents: { list: [{ id: 'A', workspace: ws.a, plugins: ['reader', 'sandbox-local'] }, { id: 'B', workspace: ws.b, plugins: ['spy', 'sandbox-local'] }] },
    });
    const spyHandle = await call(k, { agentId: 'B', sessionKey: 'shared' }, 'whoami');
    expect(await call(k, { agentId: 'A', sessionKey: 'shared' }, 'peek', { path: 'secret.txt' })).toBe('A-secret');
    const readerHandle = await call(k, { agentId: 'A', sessionKey: 'shared' }, 'whoami');
    expect(spyHandle).not.toBe(readerHandle);
    // The spy, called for B, reads B's workspace under its own handle, whatever A did with the key.
    expect(await call(k, { agentId: 'B', sessionKey: 'shared' }, 'peek', { path: 'secret.txt', session: spyHandle })).toBe('B-data');
    expect(await call(k, { agentId: 'B', sessionKey: 'shared' }, 'peek', { path: 'secret.txt', session: 'shared' })).toMatch(/^ERROR PATH_NOT_ADMITTED/);
    expect(await call(k, { agentId: 'B', sessionKey: 'shared' }, 'peek', { path: 'secret.txt', session: readerHandle })).toMatch(/^ERROR PATH_NOT_ADMITTED/);
  });

  it('keeps the agents apart under session.scope "global", where every main session is "global"', async () => {
    const ws = workspaces();
    const k = await start({
      session: { scope: 'global' },
      agents: { list: [{ id: 'A', workspace: ws.a, plugins: ['reader', 'sandbox-local'] }, { id: 'B', workspace: ws.b, plugins: ['spy', 'sandbox-local'] }] },
    });
    const spyHandle = await call(k, { agentId: 'B' }, 'whoami');
    expect(await call(k, { agentId: 'A' }, 'peek', { path: 'secret.txt' })).toBe('A-secret');
    expect(await call(k, { agentId: 'B' }, 'peek', { path: 'secret.txt', session: spyHandle })).toBe('B-data');
    expect(await call(k, { agentId: 'B' }, 'peek', { path: 'secret.txt', session: 'global' })).toMatch(/^ERROR PATH_NOT_ADMITTED/);
  });

  it('never lets a plugin that served a sandboxed session reach a host workspace under the same key', async () => {
    const ws = workspaces();
    const k = await start({
      tools: { sandbox: { tools: { allow: [] } } },
      agents: {
        list: [
          { id: 'A', workspace: ws.a, plugins: ['spy', 'echo'], sandbox: { mode: 'all', backend: 'mem' } },
          { id: 'B', workspace: ws.b, plugins: ['reader', 'sandbox-local'] },
        ],
      },
    });
    const spyHandle = await call(k, { agentId: 'A', sessionKey: 'k' }, 'whoami');
    expect(await call(k, { agentId: 'B', sessionKey: 'k' }, 'peek', { path: 'secret.txt' })).toBe('B-data');
    const hostHandle = await call(k, { agentId: 'B', sessionKey: 'k' }, 'whoami');
    expect(await call(k, { agentId: 'A', sessionKey: 'k' }, 'peek', { path: 'secret.txt', session: spyHandle })).toBe('mem:secret.txt');
    expect(await call(k, { agentId: 'A', sessionKey: 'k' }, 'peek', { path: 'secret.txt', session: 'k' })).toMatch(/^ERROR PATH_NOT_ADMITTED/);
    expect(await call(k, { agentId: 'A', sessionKey: 'k' }, 'peek', { path: 'secret.txt', session: hostHandle })).toMatch(/^ERROR PATH_NOT_ADMITTED/);
    // Without a session, a request inside a call goes to that call's own session.
    expect(await call(k, { agentId: 'A', sessionKey: 'k' }, 'peek', { path: 'secret.txt', session: null })).toBe('mem:secret.txt');
  });

  it('keeps a call in flight on its own placement while another agent\'s call takes the same key', async () => {
    const ws = workspaces();
    const gates = mkdtempSync(path.join(tmpdir(), 'pincer-gates-'));
    dirs.push(gates);
    const k = await start({
      agents: { list: [{ id: 'A', workspace: ws.a, plugins: ['reader', 'sandbox-local'] }, { id: 'B', workspace: ws.b, plugins: ['reader', 'sandbox-local'] }] },
    });
    const started = path.join(gates, 'started');
    const gate = path.join(gates, 'gate');
    const held = call(k, { agentId: 'A', sessionKey: 'k' }, 'hold', { path: 'secret.txt', started, gate });
    for (const deadline = Date.now() + 20_000; !existsSync(started) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(started)).toBe(true);
    expect(await call(k, { agentId: 'B', sessionKey: 'k' }, 'peek', { path: 'secret.txt' })).toBe('B-data');
    writeFileSync(gate, '');
    expect(await held).toBe('A-secret');
  });
});
