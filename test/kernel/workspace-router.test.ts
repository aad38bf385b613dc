import { describe, expect, it } from 'vitest';
import { WorkspaceRouter } from '../../kernel/workspace/router.js';
import type { PluginHost } from '../../kernel/host/index.js';

/** A host double: records backend requests; one plugin "box" provides backend "box". */
function fakeHost() {
  const requests: { method: string; params: Record<string, unknown>; opts?: { signal?: AbortSignal; timeoutMs?: number } }[] = [];
  let handler: ((pluginId: string, sessionKey: string | undefined, method: string, params: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>) | undefined;
  const backend = { pid: 100 };
  const host = {
    setWorkspaceHandler: (h: typeof handler) => (handler = h),
    contributions: () => [{ pluginId: 'box', state: 'ready', required: false, contributes: { tools: [], hooks: [], skillSources: [], sandboxBackends: [{ id: ' BOX ', capabilities: ['read'] }] } }],
    pluginStatus: () => ({ pid: backend.pid }),
    invokeBackend: async (_plugin: string, descriptor: { method: string }, params: Record<string, unknown>, opts?: { signal?: AbortSignal; timeoutMs?: number }) => {
      requests.push({ method: descriptor.method, params, opts });
      return descriptor.method === 'sandbox/prepare' ? { session: params.session, workdir: '/workspace' } : { ok: true };
    },
  } as unknown as PluginHost;
  return {
    host,
    requests,
    backend,
    request: (pluginId: string, sessionKey: string | undefined) => handler!(pluginId, sessionKey, 'read', { path: 'a.txt', sessionKey }),
    raw: (session: string, method: string, params: Record<string, unknown>, signal?: AbortSignal) => handler!('shell', session, method, params, signal),
  };
}

const placement = { agentId: 'main', backendId: 'box', workspaceDir: '/tmp/ws' };

describe('the workspace router', () => {
  it('prepares the session once under its handle, with its protected paths, then routes requests addressed by the handle', async () => {
    const { host, requests, request } = fakeHost();
    const router = new WorkspaceRouter(host);
    const { session, end } = router.beginCall('fs', 's1', { ...placement, protectedPaths: ['.git', 'pincer.config.json'] });
    expect(session).toMatch(/^main\/s1#[0-9a-f]{12}$/);
    await request('fs', session);
    await request('fs', undefined);
    end();
    expect(requests.map((r) => r.method)).toEqual(['sandbox/prepare', 'sandbox/read', 'sandbox/read']);
    expect(requests[0].params).toMatchObject({ session, backendId: 'box', workspaceDir: '/tmp/ws', protectedPaths: ['.git', 'pincer.config.json'] });
    expect(requests[1].params).toEqual({ path: 'a.txt', session });
  });

  it('gives the same key a different handle per agent and per placement, and the same one again for the same session', () => {
    const { host } = fakeHost();
    const router = new WorkspaceRouter(host);
    const a = router.beginCall('fs', 's1', placement).session;
    expect(router.beginCall('fs', 's1', { ...placement }).session).toBe(a);
    expect(router.beginCall('fs', 's1', { ...placement, agentId: 'ops' }).session).not.toBe(a);
    expect(router.beginCall('fs', 's1', { ...placement, readOnly: true }).session).not.toBe(a);
  });

  it('refuses a plugin addressing a session it has never been called for, by key or by handle', async () => {
    const { host, request } = fakeHost();
    const router = new WorkspaceRouter(host);
    const main = router.beginCall('other', 'agent:main:main', placement);
    const sandboxed = router.beginCall('fs', 'sandboxed', placement);
    await expect(request('fs', 'agent:main:main')).rejects.toMatchObject({ workspaceCode: 'PATH_NOT_ADMITTED' });
    await expect(request('fs', main.session)).rejects.toMatchObject({ workspaceCode: 'PATH_NOT_ADMITTED' });
    sandboxed.end();
    main.end();
  });

  it('refuses a request without a session outside a call, but lets a background run reach the session it was started for', async () => {
    const { host, request } = fakeHost();
    const router = new WorkspaceRouter(host);
    await expect(request('fs', undefined)).rejects.toThrow(/without a session/);
    const { session, end } = router.beginCall('fs', 's1', placement);
    end();
    await expect(request('fs', undefined)).rejects.toMatchObject({ workspaceCode: 'PATH_NOT_ADMITTED' });
    await expect(request('fs', session)).resolves.toEqual({ ok: true });
    await expect(request('shell', session)).rejects.toMatchObject({ workspaceCode: 'PATH_NOT_ADMITTED' });
  });

  it('names the missing backend and the fix', async () => {
    const { host, request } = fakeHost();
    const router = new WorkspaceRouter(host);
    const { session } = router.beginCall('fs', 's1', { ...placement, backendId: 'ssh' });
    await expect(request('fs', session)).rejects.toThrow(/no plugin provides the sandbox backend "ssh".*sandbox-ssh.*back to "docker".*box/);
  });
});

describe('the workspace router and the backend it calls for a tool', () => {
  it('forwards the tool plugin cancellation and gives exec and run waits deadlines of their own', async () => {
    const { host, requests, raw } = fakeHost();
    const router = new WorkspaceRouter(host);
    const { session } = router.beginCall('shell', 's1', placement);
    const signal = new AbortController().signal;
    await raw(session, 'exec', { command: 'make', options: { timeoutMs: 600_000 } }, signal);
    await raw(session, 'runRead', { runId: 'run_1', options: { waitMs: 60_000 } }, signal);
    await raw(session, 'read', { path: 'a.txt' }, signal);
    const [exec, read, file] = requests.slice(1);
    expect(exec).toMatchObject({ method: 'sandbox/exec', opts: { signal, timeoutMs: 630_000 } });
    expect(read).toMatchObject({ method: 'sandbox/runRead', params: { runId: 'run_1', session }, opts: { signal, timeoutMs: 90_000 } });
    expect(file!.opts).toEqual({ signal, timeoutMs: undefined });
  });

  it('prepares the session again in a backend process that restarted (it knows no sessions)', async () => {
    const { host, requests, request, backend } = fakeHost();
    const router = new WorkspaceRouter(host);
    const { session } = router.beginCall('fs', 's1', placement);
    await request('fs', session);
    await request('fs', session);
    backend.pid = 101;
    await request('fs', session);
    expect(requests.map((r) => r.method)).toEqual(['sandbox/prepare', 'sandbox/read', 'sandbox/read', 'sandbox/prepare', 'sandbox/read']);
  });
});
