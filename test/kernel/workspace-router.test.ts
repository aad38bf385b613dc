import { describe, expect, it } from 'vitest';
import { WorkspaceRouter } from '../../kernel/workspace/router.js';
import type { PluginHost } from '../../kernel/host/index.js';

/** A host double: records backend requests; one plugin "box" provides backend "box". */
function fakeHost() {
  const requests: { method: string; params: Record<string, unknown> }[] = [];
  let handler: ((pluginId: string, sessionKey: string | undefined, method: string, params: Record<string, unknown>) => Promise<unknown>) | undefined;
  const host = {
    setWorkspaceHandler: (h: typeof handler) => (handler = h),
    contributions: () => [{ pluginId: 'box', state: 'ready', required: false, contributes: { tools: [], hooks: [], skillSources: [], sandboxBackends: [{ id: ' BOX ', capabilities: ['read'] }] } }],
    invokeBackend: async (_plugin: string, descriptor: { method: string }, params: Record<string, unknown>) => {
      requests.push({ method: descriptor.method, params });
      return descriptor.method === 'sandbox/prepare' ? { session: params.session, workdir: '/workspace' } : { ok: true };
    },
  } as unknown as PluginHost;
  return { host, requests, request: (pluginId: string, sessionKey: string | undefined) => handler!(pluginId, sessionKey, 'read', { path: 'a.txt', sessionKey }) };
}

const placement = { agentId: 'main', backendId: 'box', workspaceDir: '/tmp/ws' };

describe('the workspace router', () => {
  it('prepares the session once, then routes requests to its backend addressed by session', async () => {
    const { host, requests, request } = fakeHost();
    const router = new WorkspaceRouter(host);
    const end = router.beginCall('fs', 's1', placement);
    await request('fs', 's1');
    await request('fs', undefined);
    end();
    expect(requests.map((r) => r.method)).toEqual(['sandbox/prepare', 'sandbox/read', 'sandbox/read']);
    expect(requests[1].params).toEqual({ path: 'a.txt', session: 's1' });
  });

  it('refuses a plugin addressing a session it has never been called for', async () => {
    const { host, request } = fakeHost();
    const router = new WorkspaceRouter(host);
    const endMain = router.beginCall('other', 'agent:main:main', placement);
    const end = router.beginCall('fs', 'sandboxed', placement);
    await expect(request('fs', 'agent:main:main')).rejects.toMatchObject({ workspaceCode: 'PATH_NOT_ADMITTED' });
    end();
    endMain();
  });

  it('refuses a request without a session outside a call, but lets a background run reach the session it was started for', async () => {
    const { host, request } = fakeHost();
    const router = new WorkspaceRouter(host);
    await expect(request('fs', undefined)).rejects.toThrow(/without a session/);
    router.beginCall('fs', 's1', placement)();
    await expect(request('fs', undefined)).rejects.toMatchObject({ workspaceCode: 'PATH_NOT_ADMITTED' });
    await expect(request('fs', 's1')).resolves.toEqual({ ok: true });
    await expect(request('shell', 's1')).rejects.toMatchObject({ workspaceCode: 'PATH_NOT_ADMITTED' });
  });

  it('names the missing backend and the fix', async () => {
    const { host, request } = fakeHost();
    const router = new WorkspaceRouter(host);
    router.beginCall('fs', 's1', { ...placement, backendId: 'ssh' });
    await expect(request('fs', 's1')).rejects.toThrow(/no plugin provides the sandbox backend "ssh".*sandbox-ssh.*back to "docker".*box/);
  });
});
