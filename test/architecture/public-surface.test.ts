import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  AfterToolCallObserver, BeforeToolCallEvent, CallResult, HookRegistration, RunContext, ToolSet, TrustedToolPolicy,
} from '../../kernel/index.js';

// The package's three front doors. Changing a list is a decision about the public API: update it here.
const SURFACES: Record<string, string[]> = {
  'pincer (kernel/index.ts)': [
    'BUNDLED_PLUGINS', 'CallPathError', 'ConfigError', 'DEFAULT_CONFIG_FILE', 'KernelError', 'PincerConfigSchema', 'applyPolicyPipeline',
    'buildBlockedToolResult', 'buildPolicySteps', 'checkConfig', 'createDiagnosticsEmitter', 'createKernel', 'createPluginHost',
    'createPolicyEngine', 'createToolGate', 'createToolLoopDetector', 'bundledPluginConfig', 'defaultConfig', 'discoverConfigPath', 'formatAuditLines',
    'isCallPathError', 'isKernelError', 'isSessionSandboxed', 'lintPolicyConfig', 'loadConfig', 'loadConfigFile', 'normalizeToolSchema', 'parseConfig',
    'pluginToolsFromManifests',
    'resolveSandboxToolPolicy', 'toToolDefinition', 'unknownToolResult', 'RunContextError', 'SkillCommandError', 'KernelUsageError', 'KERNEL_CALL_CODES',
    'toOpenAITools', 'toAnthropicTools', 'toGeminiTools', 'ProviderToolError',
    'createScriptedTurnRunner', 'stepsFromMessage', 'TurnError',
    'createSystemTool', 'configFileHash', 'SYSTEM_TOOL_NAME', 'configJsonSchema',
  ],
  'pincer/sdk (sdk/index.ts)': [
    'CancelledError', 'NodeError', 'DEFAULT_MAX_READ_BYTES', 'HostFsBridge', 'PathGuard', 'PluginError', 'PolicyInputError', 'SandboxError',
    'SandboxPathGuard', 'ShellWorkspace', 'WorkspaceError', 'applyEmbeddedAttemptToolsAllow', 'attachToolAllowlistIntersection',
    'bindPlugin', 'buildDockerCreateParams', 'buildPluginToolGroups', 'buildSandboxContainerName', 'computeSandboxConfigHash',
    'createRuntimeToolMatcher', 'createToolPolicyMatcher', 'definePlugin', 'defineTool', 'defineWorkspaceBackend', 'expandPluginGroups',
    'expandPolicyWithPluginGroups', 'expandToolGroups', 'explainWorkspaceError', 'filterToolsByPolicy', 'intersectToolAllowlists',
    'isToolAllowedByPolicies', 'isToolAllowedByPolicyName', 'mapWorkspacePath', 'normalizeToolList', 'normalizeToolPolicyName',
    'pluginContributions', 'pluginDataDir', 'pluginManifest', 'readBounded', 'readDirectoryEntries', 'readToolAllowlistIntersection', 'resolvePathMapping',
    'resolveSandboxDockerUser', 'resolveSandboxMounts', 'serve', 'splitSandboxBindSpec', 'toolPolicy', 'validateSandboxSecurity',
    'workspaceErrorCodeOf', 'writeFileAtomic', 'okResult', 'errorResult', 'workspaceErrorResult', 'TurnRefusedError',
  ],
};

// The types of `pincer` a host names in its own code (24.3): every one it meets in the API is exported.
const KERNEL_TYPES = [
  'AfterToolCallEvent', 'AfterToolCallObserver', 'AgentConfig', 'AuditKind', 'AuditRecord', 'AuditTrailView', 'AnthropicTool', 'ApprovalDecision', 'ApprovalRequest',
  'ApprovalResolution', 'ApprovalSurface', 'ApprovalSurfaceRequest', 'ArmedApproval', 'BeforeToolCallEvent', 'BeforeToolCallResult', 'CallCode',
  'CallError', 'CallOutcome', 'CallPathErrorCode', 'CallResult', 'CallsBlocked', 'ConfigErrorCode', 'ConfigIssue', 'DeniedReason',
  'DiagnosticsEmitter', 'DiagnosticsEvent', 'DiagnosticsEventMap', 'DiagnosticsEventType', 'DiagnosticsListener', 'ExecuteOptions',
  'FailedCallResult', 'FailureDisposition', 'GateRunState', 'GatedCall', 'GeminiFunctionDeclaration', 'GeminiTool', 'HookRegistration',
  'HostLogRecord', 'HostLogger', 'Kernel', 'KernelErrorCode', 'KernelOptions', 'KernelTool', 'KernelUsageErrorCode', 'LoopCheckResult',
  'LoopDetectorKind', 'OkCallResult', 'OpenAIChatTool', 'OpenAIFunction', 'OpenAIResponsesTool', 'OpenAIToolOptions', 'PincerConfig',
  'PluginAvailability', 'PluginHost', 'PluginLifecycleState', 'PluginStatus', 'PolicyEngine', 'PolicyLayerId', 'PolicyLintOptions',
  'PolicyRemoval', 'PolicyResult', 'PolicyStep', 'ProviderToolErrorCode', 'ProviderToolInput', 'RestartPolicy', 'RunContext', 'RunSender',
  'RunToolExplanation', 'RunTrigger', 'SandboxAdmin', 'SandboxAdminOperation', 'SandboxAdminRequest', 'SandboxAdminResult', 'SandboxCheckStep', 'SandboxConfig', 'SandboxListing', 'SandboxMode', 'SystemTool', 'SystemToolOptions', 'ToolContent', 'ToolDescriptor', 'ToolExecuteContext',
  'ToolApprovalRequestedEvent', 'ToolApprovalResolvedEvent', 'ToolExecutionBlockedEvent', 'ToolExecutionCompletedEvent', 'ToolExecutionErrorEvent', 'ToolExecutionEventBase',
  'ToolExecutionRejectedEvent', 'ToolExecutionStartedEvent', 'ToolExplanation', 'ToolGate', 'ToolGateOptions', 'ToolLoopDetectedEvent',
  'ToolLoopDetectionConfig', 'ToolLoopDetector', 'ToolResult', 'ToolSet', 'ToolsChangedEvent', 'TrustedPolicyDecision',
  'TrustedToolPolicy', 'UnavailableToolExplanation', 'VetoCode',
  // Skills
  'KernelSkills', 'RunSkill', 'RunSkills', 'SkillCollision', 'SkillCommandErrorCode', 'SkillExclusion', 'SourceStatus', 'ToolSetSkills',
  // Turns and tasks
  'ScriptedStep', 'ScriptedTurnRecord', 'ScriptedTurnRunner', 'TurnScript', 'TurnContext', 'TurnOutcome', 'TurnRequest', 'TurnResult', 'TurnRunner',
  'HostTurnRequest', 'KernelTasks', 'StartedTurn',
];

/** Names a module re-exports with `export type { … }`, read from its source (it has only named re-exports). */
function typeExports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) if (statement.isTypeOnly || element.isTypeOnly) names.push(element.name.text);
  }
  return names.sort();
}

const MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
  'pincer (kernel/index.ts)': () => import('../../kernel/index.js'),
  'pincer/sdk (sdk/index.ts)': () => import('../../sdk/index.js'),
};

describe('the public API', () => {
  it.each(Object.keys(SURFACES))('%s exports exactly its curated names and no default', async (name) => {
    const mod = await MODULES[name]();
    expect(Object.keys(mod).sort()).toEqual([...SURFACES[name]].sort());
  });

  it('pincer exports every public type by name (24.3), and exactly those', () => {
    expect(typeExports(path.resolve(import.meta.dirname, '../../kernel/index.ts'))).toEqual([...KERNEL_TYPES].sort());
  });

  it('has one RunContext: the one a host assembles with is the one policies, hooks and observers receive', () => {
    expectTypeOf<Parameters<TrustedToolPolicy['evaluate']>[1]>().toEqualTypeOf<RunContext>();
    expectTypeOf<Parameters<HookRegistration['handler']>[1]>().toEqualTypeOf<RunContext>();
    expectTypeOf<Parameters<AfterToolCallObserver['handler']>[1]>().toEqualTypeOf<RunContext>();
    expectTypeOf<Parameters<TrustedToolPolicy['evaluate']>[0]>().toEqualTypeOf<BeforeToolCallEvent>();
    expectTypeOf<Awaited<ReturnType<ToolSet['execute']>>>().toEqualTypeOf<CallResult>();
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
