/**
 * Pincer's kernel: the public API for hosts embedding it. Named exports only.
 *
 *   const kernel = createKernel(await loadConfig());
 *   await kernel.start();
 *   const toolSet = kernel.assembleTools({ agentId: 'main', sessionKey: 'agent:main:main' });
 *   const result = await toolSet.execute('read', { path: 'README.md' });
 *   await kernel.stop();
 */
export { createKernel } from './kernel.js';
export type { Kernel, KernelOptions } from './kernel.js';
export type { ToolSet, ToolDescriptor, ExecuteOptions } from './assembly/tool-set.js';
export { RunContextError } from './assembly/errors.js';

// Skills
export { SkillCommandError } from './skills/errors.js';
export type { SkillCommandErrorCode } from './skills/errors.js';
export type { KernelSkills, ToolSetSkills } from './skills/service.js';
export type { RunSkills, RunSkill, SkillExclusion, SkillCollision, SourceStatus } from './skills/types.js';

// Config
export { loadConfig, discoverConfigPath, DEFAULT_CONFIG_FILE } from './config/load.js';
export { defaultConfig, BUNDLED_PLUGINS } from './config/defaults.js';
export { checkConfig, parseConfig, loadConfigFile } from './config/validate.js';
export { lintPolicyConfig, pluginToolsFromManifests } from './config/lint.js';
export type { PolicyLintOptions } from './config/lint.js';
export { ConfigError } from './config/errors.js';
export type { ConfigIssue, ConfigErrorCode } from './config/errors.js';
export { PincerConfigSchema } from './config/schema.js';
export type { PincerConfig, AgentConfig, SandboxConfig, SandboxMode } from './config/schema.js';

// Policy
export { applyPolicyPipeline, buildPolicySteps, createPolicyEngine, isSessionSandboxed, resolveSandboxToolPolicy, formatAuditLines } from './policy/index.js';
export type { RunContext, RunSender, PolicyRemoval, ToolExplanation, PolicyStep, PolicyLayerId, PolicyResult, PolicyEngine } from './policy/index.js';

// Call path
export { createToolGate, CallPathError, isCallPathError, buildBlockedToolResult } from './gate/index.js';
export type {
  ToolGate, ToolGateOptions, KernelTool, ToolResult, ToolContent, HookRegistration, TrustedToolPolicy,
  ApprovalSurface, ApprovalSurfaceRequest, ApprovalRequest, ApprovalDecision, BeforeToolCallResult, AfterToolCallObserver,
} from './gate/index.js';
export { createToolLoopDetector } from './loop/index.js';
export { createDiagnosticsEmitter } from './diagnostics/index.js';
export type { DiagnosticsEmitter } from './diagnostics/index.js';
export { toToolDefinition, unknownToolResult } from './adapter/index.js';
export { normalizeToolSchema } from './schema/index.js';

// Provider tool formats
export { toOpenAITools, toAnthropicTools, toGeminiTools, ProviderToolError } from './providers/index.js';
export type {
  OpenAIToolOptions, OpenAIChatTool, OpenAIResponsesTool, OpenAIFunction, AnthropicTool, GeminiTool, GeminiFunctionDeclaration,
  ProviderToolErrorCode, ProviderToolInput,
} from './providers/index.js';

// Plugin host
export { createPluginHost, KernelError, isKernelError } from './host/index.js';
export type { PluginHost, PluginStatus, KernelErrorCode, HostLogger, HostLogRecord } from './host/index.js';
