import { describe, expect, it } from 'vitest';

// The curated public surface of the plugin machinery. Changing it is a decision: update here.
const SURFACES: Record<string, string[]> = {
  '../../sdk/plugin-api.js': ['CancelledError', 'NodeError', 'PluginError', 'WorkspaceError', 'bindPlugin', 'definePlugin', 'defineTool', 'pluginContributions', 'pluginDataDir', 'pluginManifest', 'serve'],
  '../../sdk/testing/index.js': ['createMemoryWorkspace', 'createPluginTestHarness'],
  '../../kernel/host/index.js': [
    'DEFAULT_CORE_TOOL_PLUGINS', 'DEFAULT_INHERITED_ENV_VARS', 'KERNEL_ERROR_CODES', 'KernelError', 'MANIFEST_FILE', 'PluginConfigSchema', 'PluginManifestSchema',
    'PluginTimeoutsSchema', 'RestartPolicySchema', 'buildPluginEnv', 'createPluginHost', 'defaultHostLogger', 'isKernelError',
    'escapeForTerminal', 'loadManifest', 'registeredProcessGroups', 'toKernelError',
  ],
};

describe('public surfaces', () => {
  it.each(Object.entries(SURFACES))('%s exports exactly its curated names, no default', async (path, names) => {
    const mod = (await import(path)) as Record<string, unknown>;
    expect(Object.keys(mod).sort()).toEqual([...names].sort());
  });

  it('protocol/index.ts exports every method descriptor by name and has no default export', async () => {
    const mod = (await import('../../protocol/index.js')) as Record<string, unknown>;
    expect(mod.default).toBeUndefined();
    const exported = new Set(Object.values(mod));
    for (const d of mod.PROTOCOL_V1_METHODS as unknown[]) expect(exported.has(d)).toBe(true);
  });
});
