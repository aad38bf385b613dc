import { describe, expect, it } from 'vitest';

// The package's three front doors. Changing a list is a decision about the public API: update it here.
const SURFACES: Record<string, string[]> = {
  'pincer (kernel/index.ts)': [
    'BUNDLED_PLUGINS', 'CallPathError', 'ConfigError', 'DEFAULT_CONFIG_FILE', 'KernelError', 'PincerConfigSchema', 'applyPolicyPipeline',
    'buildBlockedToolResult', 'buildPolicySteps', 'checkConfig', 'createDiagnosticsEmitter', 'createKernel', 'createPluginHost',
    'createPolicyEngine', 'createToolGate', 'createToolLoopDetector', 'defaultConfig', 'discoverConfigPath', 'formatAuditLines',
    'isCallPathError', 'isKernelError', 'isSessionSandboxed', 'lintPolicyConfig', 'loadConfig', 'loadConfigFile', 'normalizeToolSchema', 'parseConfig',
    'pluginToolsFromManifests',
    'resolveSandboxToolPolicy', 'toToolDefinition', 'unknownToolResult', 'RunContextError', 'SkillCommandError',
    'toOpenAITools', 'toAnthropicTools', 'toGeminiTools', 'ProviderToolError',
  ],
  'pincer/sdk (sdk/index.ts)': [
    'CancelledError', 'DEFAULT_MAX_READ_BYTES', 'HostFsBridge', 'PathGuard', 'PluginError', 'PolicyInputError', 'SandboxError',
    'SandboxPathGuard', 'ShellWorkspace', 'WorkspaceError', 'applyEmbeddedAttemptToolsAllow', 'attachToolAllowlistIntersection',
    'bindPlugin', 'buildDockerCreateParams', 'buildPluginToolGroups', 'buildSandboxContainerName', 'computeSandboxConfigHash',
    'createRuntimeToolMatcher', 'createToolPolicyMatcher', 'definePlugin', 'defineTool', 'defineWorkspaceBackend', 'expandPluginGroups',
    'expandPolicyWithPluginGroups', 'expandToolGroups', 'explainWorkspaceError', 'filterToolsByPolicy', 'intersectToolAllowlists',
    'isToolAllowedByPolicies', 'isToolAllowedByPolicyName', 'mapWorkspacePath', 'normalizeToolList', 'normalizeToolPolicyName',
    'pluginContributions', 'pluginManifest', 'readBounded', 'readDirectoryEntries', 'readToolAllowlistIntersection', 'resolvePathMapping',
    'resolveSandboxDockerUser', 'resolveSandboxMounts', 'serve', 'splitSandboxBindSpec', 'toolPolicy', 'validateSandboxSecurity',
    'workspaceErrorCodeOf', 'writeFileAtomic', 'okResult', 'errorResult', 'workspaceErrorResult',
  ],
};

const MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
  'pincer (kernel/index.ts)': () => import('../../kernel/index.js'),
  'pincer/sdk (sdk/index.ts)': () => import('../../sdk/index.js'),
};

describe('the public API', () => {
  it.each(Object.keys(SURFACES))('%s exports exactly its curated names and no default', async (name) => {
    const mod = await MODULES[name]();
    expect(Object.keys(mod).sort()).toEqual([...SURFACES[name]].sort());
  });

  it('gives plugin authors the reference-compatible toolPolicy namespace', async () => {
    const { toolPolicy } = await import('../../sdk/index.js');
    expect(Object.isFrozen(toolPolicy)).toBe(true);
    expect(typeof toolPolicy.expandToolGroups).toBe('function');
    expect(typeof toolPolicy.createToolPolicyMatcher).toBe('function');
  });

  it('resolves the package exports by name, as a dependent package would', async () => {
    const sdk = await import('pincer/sdk');
    const kernel = await import('pincer');
    const protocol = await import('pincer/protocol');
    expect(typeof sdk.definePlugin).toBe('function');
    expect(typeof kernel.createKernel).toBe('function');
    expect(protocol.CORE_TOOL_GROUPS.get('group:fs')).toContain('read');
  });
});
