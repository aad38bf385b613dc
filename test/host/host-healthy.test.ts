import { afterEach, describe, expect, it } from 'vitest';
import { SandboxExec, SandboxPrepare, SandboxRead } from '../../protocol/index.js';
import { KernelError, type PluginHost } from '../../kernel/host/index.js';
import { fixture, groupMembers, testHost, waitFor, zombieChildren } from './helpers.js';

let current: PluginHost | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});

function start(settings: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const t = testHost([{ id: 'echo', module: fixture('echo'), settings, env, coreTools: ['read'] }]);
  current = t.host;
  return t;
}

describe('a healthy plugin over fd 3', () => {
  it('starts, handshakes and shows its identity and contributions to operators', async () => {
    const { host } = start();
    await host.start();
    const [s] = host.status();
    expect(s).toMatchObject({ id: 'echo', state: 'ready', protocolVersion: 1, pluginVersion: '1.0.0', restarts: 0, transport: 'fd3' });
    expect(s!.pid).toBeGreaterThan(0);
    expect(host.contributedTools().map((t) => t.name)).toContain('echo');
    expect(host.contributedTools()[0]).toMatchObject({ pluginId: 'echo', family: 'test' });
    expect(host.contributions()[0]!.contributes.hooks.map((h) => h.name)).toEqual(['before_tool_call', 'after_tool_call']);
  });

  it('invokes a tool with settings and call context', async () => {
    const { host } = start({ greeting: 'hi' });
    await host.start();
    const result = await host.invokeTool('echo', 'echo', { a: 1 }, { sessionKey: 's1', toolCallId: 'c1' });
    expect(result.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
    expect(result.details).toMatchObject({ settings: { greeting: 'hi' }, call: { sessionKey: 's1', toolCallId: 'c1' } });
  });

  it('gives the plugin only allow-listed env vars, its own env and the cookie', async () => {
    process.env.PINCER_TEST_SECRET = 'do-not-leak';
    const { host } = start({}, { PLUGIN_ONLY: 'yes' });
    const env = JSON.parse(((await host.invokeTool('echo', 'env', {})).content[0] as { text: string }).text);
    delete process.env.PINCER_TEST_SECRET;
    expect(env.PINCER_TEST_SECRET).toBeUndefined();
    expect(env.PLUGIN_ONLY).toBe('yes');
    expect(env.PINCER_PLUGIN_COOKIE).toBeTruthy();
    expect(env.PATH).toBe(process.env.PATH);
  });

  it('lets progress reports extend a deadline up to the hard cap', async () => {
    const { host } = start();
    const seen: unknown[] = [];
    const result = await host.invokeTool('echo', 'slow', { ms: 600, every: 100 }, { timeoutMs: 300, onProgress: (p) => seen.push(p) });
    expect(result.content[0]).toEqual({ type: 'text', text: 'done' });
    expect(seen.length).toBeGreaterThanOrEqual(5);
    // Without progress the same deadline expires.
    await expect(host.invokeTool('echo', 'slow', { ms: 600, every: 600 }, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT' });
  });

  it('lets a tool’s own deadline only shorten the operator’s idle deadline, which progress resets up to the hard cap', async () => {
    const t = testHost([{ id: 'echo', module: fixture('echo'), timeouts: { callMs: 1_000, maxCallMs: 3_000 } }]);
    current = t.host;
    // `slow` declares timeoutMs 60 s: it cannot lengthen the operator's 1 s idle deadline.
    await expect(t.host.invokeTool('echo', 'slow', { ms: 3_000, every: 3_000 })).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT', message: expect.stringContaining('deadline 1000 ms') });
    // Progress every 100 ms keeps the idle deadline alive past 1 s...
    expect((await t.host.invokeTool('echo', 'slow', { ms: 1_500, every: 100 })).content[0]).toEqual({ type: 'text', text: 'done' });
    // ...but never past the 3 s ceiling.
    await expect(t.host.invokeTool('echo', 'slow', { ms: 20_000, every: 100 })).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT', message: expect.stringContaining('cap 3000 ms') });
  });

  it('sends $/cancelRequest when the caller aborts, and the plugin sees its signal abort', async () => {
    const { host } = start();
    await host.start();
    const controller = new AbortController();
    const call = host.invokeTool('echo', 'wait', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user stop')), 50);
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED', pluginId: 'echo' });
    await expect.poll(async () => ((await host.invokeTool('echo', 'cancelled-count', {})).content[0] as { text: string }).text).toBe('1');
  });

  it('times out a call with PLUGIN_TIMEOUT and keeps the plugin ready', async () => {
    const { host } = start();
    await expect(host.invokeTool('echo', 'wait', {}, { timeoutMs: 100 })).rejects.toBeInstanceOf(KernelError);
    expect(host.status()[0]!.state).toBe('ready');
    expect(host.status()[0]!.inflight).toBe(0);
  });

  it('calls hooks and validates their decisions', async () => {
    const { host } = start();
    await host.start();
    expect(await host.callHook('echo', 'before_tool_call', { toolName: 'danger', params: {} })).toEqual({ block: true, blockReason: 'danger is blocked' });
    expect(await host.callHook('echo', 'before_tool_call', { toolName: 'ls', params: {} })).toBeNull();
    expect(await host.callHook('echo', 'after_tool_call', { toolName: 'ls', params: {}, durationMs: 1 })).toBeNull();
  });

  it('updates cached contributions on tools/listChanged', async () => {
    const { host } = start();
    await host.start();
    const before = host.contributionsVersion;
    await host.invokeTool('echo', 'add-tool', {});
    await waitFor(() => host.contributedTools().some((t) => t.name === 'added'), 2_000, 'tools/listChanged');
    expect(host.contributionsVersion).toBeGreaterThan(before);
  });

  it('routes workspace requests from the plugin to the workspace handler with the session', async () => {
    const { host } = start();
    const calls: unknown[] = [];
    host.setWorkspaceHandler(async (pluginId, sessionKey, method, params) => {
      calls.push({ pluginId, sessionKey, method, params });
      if (params.path === 'missing') throw Object.assign(new Error('no such file'), { code: 'NOT_FOUND' });
      return { path: String(params.path), content: 'hello', encoding: 'utf8', size: 5 };
    });
    const r = await host.invokeTool('echo', 'read', { path: 'a.txt' }, { sessionKey: 'sess-9' });
    expect(r.content[0]).toEqual({ type: 'text', text: 'hello' });
    expect(calls[0]).toMatchObject({ pluginId: 'echo', sessionKey: 'sess-9', method: 'read', params: { path: 'a.txt' } });
    await expect(host.invokeTool('echo', 'read', { path: 'missing' })).rejects.toMatchObject({ code: 'WORKSPACE_ERROR', data: { code: 'NOT_FOUND' }, message: expect.stringContaining('no such file') });
  });

  it('aborts the workspace handler when the tool call that made the request is cancelled', async () => {
    const { host } = start();
    let aborted: unknown;
    let entered = false;
    await host.start();
    host.setWorkspaceHandler((_p, _s, _m, _params, signal) => new Promise((_resolve, reject) => {
      entered = true;
      signal.addEventListener('abort', () => {
        aborted = signal.reason;
        reject(new Error('aborted'));
      });
    }));
    const controller = new AbortController();
    const call = host.invokeTool('echo', 'read', { path: 'slow.txt' }, { signal: controller.signal });
    await waitFor(() => entered, 2_000, 'workspace request');
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    await waitFor(() => aborted !== undefined, 2_000, 'workspace handler abort');
  });

  it('sends sandbox requests to a backend and refuses undeclared capabilities locally', async () => {
    const { host } = start();
    await host.start();
    expect(await host.invokeBackend('echo', SandboxPrepare, { session: 's', backendId: 'mem' })).toEqual({ session: 's', workdir: '/workspace' });
    expect(await host.invokeBackend('echo', SandboxRead, { session: 's', path: 'x' })).toMatchObject({ content: 'mem:x' });
    await expect(host.invokeBackend('echo', SandboxExec, { session: 's', command: 'ls' })).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
  });

  it('lists skills of a skill source', async () => {
    const { host } = start();
    expect(await host.listSkills('echo', { label: 'echo-skills' })).toEqual({ version: 'v1', skills: [{ name: 'hello', dir: '/tmp/hello' }], skipped: [] });
  });

  it('forwards stdout lines and $/log records to the logger tagged with the plugin id', async () => {
    const { host, logs } = start();
    await host.invokeTool('echo', 'log', {});
    await waitFor(() => logs.some((l) => l.message === 'structured') && logs.some((l) => l.message === 'console line'), 2_000, 'logs');
    expect(logs.find((l) => l.message === 'structured')).toMatchObject({ source: 'plugin:echo', level: 'warn', data: { a: 1 } });
    expect(logs.find((l) => l.message === 'console line')).toMatchObject({ source: 'plugin:echo' });
  });

  it('stops with $/shutdown and leaves no process and no zombie', async () => {
    const { host } = start();
    await host.start();
    const pid = host.status()[0]!.pid!;
    await host.stop();
    expect(host.status()[0]!.state).toBe('stopped');
    expect(groupMembers(pid)).toEqual([]);
    expect(zombieChildren()).toEqual([]);
    await expect(host.invokeTool('echo', 'echo', {})).rejects.toMatchObject({ code: 'PLUGIN_STOPPED' });
  });

  it('rejects a config with a clear error naming the plugin and the field', () => {
    expect(() => testHost([{ id: 'x', module: 'a.js', command: ['b'] }])).toThrow(/plugins\[0\] \("x"\) is invalid: .*exactly one of "command"/);
    expect(() => testHost([{ id: 'x', module: 'a.js' }, { id: 'x', module: 'b.js' }])).toThrow(/configured twice/);
  });
});
