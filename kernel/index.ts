/**
 * Pincer's kernel: the public API for hosts embedding it. Named exports only. The whole host
 * loop is in docs/embedding.md:
 *
 *   const kernel = createKernel(await loadConfig());
 *   await kernel.start();
 *   const toolSet = kernel.assembleTools({ agentId: 'main', sessionKey: 'agent:main:main', runId });
 *   const result = await toolSet.execute('read', { path: 'README.md' });   // result.outcome, result.code
 *   await kernel.stop();
 */
export { createKernel } from './kernel.js';
export type { Kernel, KernelOptions } from './kernel.js';
export type { SandboxAdmin, SandboxAdminRequest } from './workspace/sandbox-admin.js';
export type { SandboxAdminOperation, SandboxAdminResult, SandboxListing, SandboxCheckStep } from '../protocol/index.js';
export type { ToolSet, ToolDescriptor, ExecuteOptions } from './assembly/tool-set.js';
export type { ToolsChangedEvent } from './assembly/tools-changed.js';
export type { RunToolExplanation, UnavailableToolExplanation, CallsBlocked } from './assembly/run-explain.js';
export { KernelUsageError } from './assembly/usage-error.js';
export type { KernelUsageErrorCode } from './assembly/usage-error.js';
export { RunContextError } from './assembly/errors.js';

// Skills
export { SkillCommandError } from './skills/errors.js';
export type { SkillCommandErrorCode } from './skills/errors.js';
export type { KernelSkills, ToolSetSkills } from './skills/service.js';
export type { RunSkills, RunSkill, SkillExclusion, SkillCollision, SourceStatus } from './skills/types.js';

// Call results
export { KERNEL_CALL_CODES } from './adapter/index.js';
export type { CallResult, OkCallResult, FailedCallResult, CallOutcome, CallCode, CallError, PluginAvailability } from './adapter/index.js';

// Agent turns: the host's turn runner, the scripted runner, the tasks ledger
export { createScriptedTurnRunner, stepsFromMessage } from './turns/scripted-runner.js';
export type { ScriptedStep, ScriptedTurnRecord, ScriptedTurnRunner, TurnScript } from './turns/scripted-runner.js';
export type { TurnContext, TurnOutcome, TurnRequest, TurnResult, TurnRunner } from './turns/types.js';
export type { HostTurnRequest, KernelTasks } from './turns/kernel-turns.js';
export type { StartedTurn } from './turns/turn-service.js';
export { TurnError } from './turns/errors.js';

// Config
export { loadConfig, discoverConfigPath, DEFAULT_CONFIG_FILE } from './config/load.js';
export { defaultConfig, bundledPluginConfig, BUNDLED_PLUGINS } from './config/defaults.js';
export { checkConfig, parseConfig, loadConfigFile } from './config/validate.js';
export { lintPolicyConfig, pluginToolsFromManifests } from './config/lint.js';
export type { PolicyLintOptions } from './config/lint.js';
export { ConfigError } from './config/errors.js';
export type { ConfigIssue, ConfigErrorCode } from './config/errors.js';
export { PincerConfigSchema } from './config/schema.js';
export type { PincerConfig, AgentConfig, SandboxConfig, SandboxMode } from './config/schema.js';

// Policy
export { applyPolicyPipeline, buildPolicySteps, createPolicyEngine, isSessionSandboxed, resolveSandboxToolPolicy, formatAuditLines } from './policy/index.js';
export type { RunContext, RunSender, RunTrigger, PolicyRemoval, ToolExplanation, PolicyStep, PolicyLayerId, PolicyResult, PolicyEngine } from './policy/index.js';

// Call path (lower level: the kernel builds these for every tool set)
export { createToolGate, CallPathError, isCallPathError, buildBlockedToolResult } from './gate/index.js';
export type {
  ToolGate, ToolGateOptions, KernelTool, ToolResult, ToolContent, ToolExecuteContext, HookRegistration, TrustedToolPolicy, TrustedPolicyDecision,
  ApprovalSurface, ApprovalSurfaceRequest, ApprovalRequest, ApprovalDecision, ApprovalResolution, BeforeToolCallEvent, BeforeToolCallResult,
  AfterToolCallObserver, AfterToolCallEvent, CallPathErrorCode, DeniedReason, FailureDisposition, GatedCall, GateRunState, VetoCode,
} from './gate/index.js';
export { createToolLoopDetector } from './loop/index.js';
export type { ToolLoopDetector, ToolLoopDetectionConfig, LoopCheckResult, LoopDetectorKind } from './loop/index.js';
export { createDiagnosticsEmitter } from './diagnostics/index.js';
export type {
  DiagnosticsEmitter, DiagnosticsListener, DiagnosticsEvent, DiagnosticsEventMap, DiagnosticsEventType, ToolExecutionEventBase,
  ToolExecutionStartedEvent, ToolExecutionBlockedEvent, ToolExecutionErrorEvent, ToolExecutionCompletedEvent, ToolExecutionRejectedEvent,
  ToolLoopDetectedEvent, ToolApprovalRequestedEvent, ToolApprovalResolvedEvent,
} from './diagnostics/index.js';
export type { AuditTrailView, AuditRecord, AuditKind } from './audit/index.js';
export { toToolDefinition, unknownToolResult } from './adapter/index.js';
export { normalizeToolSchema } from './schema/index.js';

// Provider tool formats
export { toOpenAITools, toAnthropicTools, toGeminiTools, ProviderToolError } from './providers/index.js';
export type {
  OpenAIToolOptions, OpenAIChatTool, OpenAIResponsesTool, OpenAIFunction, AnthropicTool, GeminiTool, GeminiFunctionDeclaration,
  ProviderToolErrorCode, ProviderToolInput,
} from './providers/index.js';

// The system tool (config writes, restarts): held by the host only, never in a run's tool set
export { createSystemTool, configFileHash, SYSTEM_TOOL_NAME } from './system/system-tool.js';
export type { SystemTool, SystemToolOptions } from './system/system-tool.js';
export type { ArmedApproval } from './system/approvals.js';
export { configJsonSchema } from './config/json-schema.js';

// Plugin host
export { createPluginHost, KernelError, isKernelError } from './host/index.js';
export type { PluginHost, PluginStatus, PluginLifecycleState, KernelErrorCode, HostLogger, HostLogRecord, RestartPolicy } from './host/index.js';
