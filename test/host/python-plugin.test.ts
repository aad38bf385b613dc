import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PluginHost } from '../../kernel/host/index.js';
import { ROOT, groupMembers, testHost } from './helpers.js';

const plugin = path.join(ROOT, 'examples/python-plugin/plugin.py');
let current: PluginHost | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});

describe.each(['fd3', 'stdio'] as const)('the standard-library Python plugin over %s', (transport) => {
  it('handshakes, runs tools, reports progress, reads the workspace through the kernel, and stops cleanly', async () => {
    const { host } = testHost([{ id: 'py', command: ['python3', plugin], transport }]);
    current = host;
    host.setWorkspaceHandler(async (_pluginId, sessionKey, method, params) => {
      expect(method).toBe('read');
      return { path: String(params.path), content: `hello from ${sessionKey}`, encoding: 'utf8', size: 5 };
    });
    await host.start();
    expect(host.status()[0]).toMatchObject({ state: 'ready', protocolVersion: 1, pluginVersion: '0.1.0' });
    expect(host.contributedTools().map((t) => t.name)).toEqual(['py_echo', 'py_upper', 'py_count']);

    expect((await host.invokeTool('py', 'py_echo', { b: 2, a: 1 })).content).toEqual([{ type: 'text', text: '{"a": 1, "b": 2}' }]);
    expect((await host.invokeTool('py', 'py_upper', { path: 'x' }, { sessionKey: 'main' })).content[0]).toEqual({ type: 'text', text: 'HELLO FROM MAIN' });
    const progress: unknown[] = [];
    await host.invokeTool('py', 'py_count', { n: 3 }, { onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([{ progress: 1, total: 3 }, { progress: 2, total: 3 }, { progress: 3, total: 3 }]);
    await expect(host.invokeTool('py', 'nope', {})).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });

    const pid = host.status()[0]!.pid!;
    await host.stop();
    expect(groupMembers(pid)).toEqual([]);
  });
});
