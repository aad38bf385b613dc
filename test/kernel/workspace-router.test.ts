import { describe, expect, it } from 'vitest';
import { WorkspaceRouter, type WorkspaceFailure } from '../../kernel/workspace/router.js';
import { verifyDirectGrant } from '../../protocol/index.js';
import type { PluginHost } from '../../kernel/host/index.js';

/** A host double: records backend requests; one plugin "box" provides backend "box". */
function fakeHost() {
  const requests: { method: string; params: Record<string, unknown>; opts?: { signal?: AbortSignal; timeoutMs?: number } }[] = [];
  let handler: ((pluginId: string, sessionKey: string | undefined, method: string, params: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>) | undefined;
  const backend = { pid: 100, direct: false };
  let directFailure: ((backendPluginId: string, report: Record<string, unknown>) => Promise<void>) | undefined;
  const host = {
    setWorkspaceHandler: (h: typeof handler) => (handler = h),
    setDirectFailureHandler: (h: typeof directFailure) => (directFailure = h),
    directSocketFor: (pluginId: string) => `/run/direct/${pluginId}.sock`,
    pluginPid: () => backend.pid,
    contributions: () => [{ pluginId: 'box', state: 'ready', required: false, contributes: { tools: [], hooks: [], skillSources: [], sandboxBackends: [{ id: ' BOX ', capabilities: ['read'] }] } }],
    pluginStatus: () => ({ pid: backend.pid }),
    invokeBackend: async (_plugin: string, descriptor: { method: string }, params: Record<string, unknown>, opts?: { signal?: AbortSignal; timeoutMs?: number }) => {
      requests.push({ method: descriptor.method, params, opts });
      return descriptor.method === 'sandbox/prepare' ? { session: params.session, workdir: '/workspace', ...(backend.direct ? { direct: true } : {}) } : { ok: true };
    },
  } as unknown as PluginHost;
  return {
    host,
    requests,
    backend,
    request: (pluginId: string, sessionKey: string | undefined) => handler!(pluginId, sessionKey, 'read', { path: 'a.txt', sessionKey }),
    raw: (session: string, method: string, params: Record<string, unknown>, signal?: AbortSignal) => handler!('shell', session, method, params, signal),
    reportDirectFailure: (backendPluginId: string, report: Record<string, unknown>) => directFailure!(backendPluginId, report),
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

describe('the workspace router and the direct channel', () => {
  const secretOf = (requests: { method: string; params: Record<string, unknown> }[], nth = 0) =>
    (requests.filter((r) => r.method === 'sandbox/prepare')[nth]!.params.direct as { secret: string }).secret;

  it('grants a plugin its session only once the backend serves it directly, and each new prepare voids the grants before it', async () => {
    const { host, requests, request, backend } = fakeHost();
    backend.direct = true;
    const router = new WorkspaceRouter(host);
    const first = router.beginCall('fs', 's1', placement);
    expect(first.channel).toBeUndefined(); // not prepared yet
    await request('fs', first.session);
    expect(requests[0]!.params.direct).toEqual({ socket: '/run/direct/box.sock', secret: expect.stringMatching(/^[\w-]{43}$/) });
    const second = router.beginCall('fs', 's1', placement);
    expect(second.channel).toEqual({ socket: '/run/direct/box.sock', plugin: 'fs', grant: expect.any(String) });
    expect(verifyDirectGrant(secretOf(requests), second.session, 'fs', second.channel!.grant)).toBe(true);
    expect(verifyDirectGrant(secretOf(requests), second.session, 'shell', second.channel!.grant)).toBe(false);
    // Another plugin, another grant; another session, another grant.
    expect(router.beginCall('shell', 's1', placement).channel!.grant).not.toBe(second.channel!.grant);
    // A restarted backend: no grant until the session is prepared again, with a new secret.
    backend.pid = 101;
    expect(router.beginCall('fs', 's1', placement).channel).toBeUndefined();
    await request('fs', first.session);
    const third = router.beginCall('fs', 's1', placement);
    expect(secretOf(requests, 1)).not.toBe(secretOf(requests));
    expect(verifyDirectGrant(secretOf(requests, 1), third.session, 'fs', third.channel!.grant)).toBe(true);
    expect(third.channel!.grant).not.toBe(second.channel!.grant);
  });

  it('makes no grant when the backend does not take the channel up, or the kernel does not offer it', async () => {
    const { host, requests, request, backend } = fakeHost();
    const router = new WorkspaceRouter(host);
    const { session } = router.beginCall('fs', 's1', placement);
    await request('fs', session);
    expect(router.beginCall('fs', 's1', placement).channel).toBeUndefined();
    backend.direct = true;
    const off = fakeHost();
    off.backend.direct = true;
    const routedOnly = new WorkspaceRouter(off.host, undefined, undefined, { directChannel: false });
    await off.request('fs', routedOnly.beginCall('fs', 's1', placement).session);
    expect(off.requests[0]!.params.direct).toBeUndefined();
    expect(routedOnly.beginCall('fs', 's1', placement).channel).toBeUndefined();
    expect(requests[0]!.params.direct).toBeDefined();
  });

  it('makes no grant while the session would be prepared with other config (a skill mount changed)', async () => {
    const { host, request, backend } = fakeHost();
    backend.direct = true;
    let extra: Record<string, unknown> | undefined = { readOnlyMounts: ['/skills/a'] };
    const router = new WorkspaceRouter(host, () => extra);
    await request('fs', router.beginCall('fs', 's1', placement).session);
    expect(router.beginCall('fs', 's1', placement).channel).toBeDefined();
    extra = { readOnlyMounts: [] };
    expect(router.beginCall('fs', 's1', placement).channel).toBeUndefined();
  });

  it('prepares a directly served session again as soon as its skill mounts change, so no earlier grant stays good', async () => {
    const { host, requests, request, backend } = fakeHost();
    backend.direct = true;
    let extra: Record<string, unknown> | undefined = { readOnlyMounts: ['/skills/a'] };
    const router = new WorkspaceRouter(host, () => extra);
    await request('fs', router.beginCall('fs', 's1', placement).session);
    const before = router.beginCall('fs', 's1', placement).channel!;
    router.refreshDirectSessions(); // nothing changed: nothing sent
    expect(requests.filter((r) => r.method === 'sandbox/prepare')).toHaveLength(1);
    extra = { readOnlyMounts: [] };
    router.refreshDirectSessions(); // no call, no request: the kernel prepares it on its own
    await new Promise((resolve) => setImmediate(resolve));
    const prepares = requests.filter((r) => r.method === 'sandbox/prepare');
    expect(prepares).toHaveLength(2);
    expect(prepares[1]!.params).toMatchObject({ config: { readOnlyMounts: [] } });
    expect(secretOf(requests, 1)).not.toBe(secretOf(requests));
    const after = router.beginCall('fs', 's1', placement).channel!;
    expect(after.grant).not.toBe(before.grant);
  });

  it('records a direct refusal only from the session\'s own backend, for a plugin called for the session', async () => {
    const { host, request, backend, reportDirectFailure } = fakeHost();
    backend.direct = true;
    const failures: WorkspaceFailure[] = [];
    const router = new WorkspaceRouter(host, undefined, (failure) => void failures.push(failure));
    const { session } = router.beginCall('fs', 's1', placement);
    await request('fs', session);
    const report = { session, plugin: 'fs', operation: 'read', code: 'PATH_OUTSIDE_MOUNT', message: 'escapes' };
    await reportDirectFailure('box', report);
    expect(failures).toEqual([expect.objectContaining({ pluginId: 'fs', backendPluginId: 'box', agentId: 'main', sessionKey: 's1', operation: 'read', error: expect.objectContaining({ workspaceCode: 'PATH_OUTSIDE_MOUNT', message: 'escapes' }) })]);
    await expect(reportDirectFailure('other-backend', report)).rejects.toThrow(/does not serve/);
    await expect(reportDirectFailure('box', { ...report, plugin: 'never-called' })).rejects.toThrow(/does not serve/);
    await expect(reportDirectFailure('box', { ...report, session: 'main/unknown#000000000000' })).rejects.toThrow(/does not serve/);
    expect(failures).toHaveLength(1);
  });
});
