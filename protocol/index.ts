/**
 * Pincer's wire contract. Named exports only; both the kernel and the SDK import from here.
 */
export { defineNotification, defineProgress, defineRequest } from './define.js';
export { lazySchema, resolveLazySchema, resolveLazySchemaTree } from './lazy-schema.js';
export type { AnyDescriptor, MethodDirection, MethodMeta, NotificationDescriptor, ProgressDescriptor, RequestDescriptor } from './define.js';

export {
  DEFAULT_MAX_MESSAGE_BYTES,
  MAX_UNREAD_ANSWER_BYTES,
  KERNEL_PID_ENV,
  PLUGIN_COOKIE_ENV,
  PLUGIN_COOKIE_VALUE,
  PLUGIN_DATA_DIR_ENV,
  PLUGIN_ID_ENV,
  PROTOCOL_VERSION,
  RPC_FD,
  SUPPORTED_PROTOCOL_VERSIONS,
  TRANSPORT_ENV,
  describeVersionMismatch,
  negotiateProtocolVersion,
} from './v1/version.js';
export type { TransportKind } from './v1/version.js';

export { ProtocolErrorCodes, ProtocolErrorData, ProtocolErrorShape, RESERVED_ERROR_RANGE, protocolErrorName } from './v1/errors.js';
export type { ProtocolErrorCodeName } from './v1/errors.js';

export { Contributions, Handshake, HandshakeParams, HandshakeResult, KernelCapabilities, PeerInfo, PluginCapabilities } from './v1/handshake.js';
export type { ContributionsInput } from './v1/handshake.js';

export {
  CallContext,
  MAX_TOOL_DESCRIPTION_CHARS,
  TOOL_NAME_PATTERN,
  ToolContent,
  ToolContribution,
  ToolInvoke,
  ToolInvokeParams,
  ToolInvokeResult,
  ToolProgress,
  ToolProgressValue,
  ToolsListChanged,
  ToolsListChangedParams,
} from './v1/tools.js';
export { ToolAnnotations, ToolMetadataFields, ToolResultContentBlocks } from './v1/tool-metadata.js';
export { PluginComponentStatus, PluginStatusChanged, PluginStatusChangedParams } from './v1/plugin-status.js';

export {
  AfterToolCallEvent,
  ApprovalRequest,
  BeforeToolCallEvent,
  BeforeToolCallResult,
  HOOK_NAMES,
  HOOK_TABLE,
  HookAfterToolCall,
  HookBeforeToolCall,
  HookContribution,
} from './v1/hooks.js';
export type { HookName } from './v1/hooks.js';

export {
  WORKSPACE_METHODS,
  WORKSPACE_OPERATIONS,
  WORKSPACE_OPERATION_NAMES,
  WorkspaceDirEntrySchema,
  WorkspaceExec,
  ExecOutputSegmentSchema,
  ExecProgress,
  ExecProgressValue,
  WorkspaceExecOptionsSchema,
  WorkspaceExecResultSchema,
  WorkspaceMkdir,
  WorkspaceRead,
  WorkspaceReadDirectory,
  WorkspaceReadOptionsSchema,
  WorkspaceReadResultSchema,
  WorkspaceRemove,
  WorkspaceRename,
  WorkspaceStat,
  WorkspaceStatSchema,
  WorkspaceWrite,
  WorkspaceWriteOptionsSchema,
} from './v1/workspace.js';
export type { WorkspaceOperation } from './v1/workspace.js';
export {
  EXEC_RUN_OPERATIONS,
  EXEC_RUN_OPERATION_NAMES,
  ExecRunInfoSchema,
  ExecRunKillResultSchema,
  ExecRunListResultSchema,
  ExecRunReadOptionsSchema,
  ExecRunReadResultSchema,
  ExecRunStartResultSchema,
  SANDBOX_RUN_METHODS,
  SandboxRunKill,
  SandboxRunList,
  SandboxRunRead,
  SandboxRunStart,
  WORKSPACE_RUN_METHODS,
  WorkspaceRunKill,
  WorkspaceRunList,
  WorkspaceRunRead,
  WorkspaceRunStart,
} from './v1/exec-runs.js';
export type { ExecRunOperation } from './v1/exec-runs.js';
export type {
  ExecRunInfo,
  ExecRunKillResult,
  ExecRunListResult,
  ExecRunReadOptions,
  ExecRunReadResult,
  ExecRunService,
  ExecRunStartResult,
  ExecRunStatus,
} from './v1/exec-run-types.js';
export { WORKSPACE_ERROR_CODES } from './v1/workspace-types.js';
export type {
  ExecOutputListener,
  ExecOutputSegment,
  WorkspaceDirEntry,
  WorkspaceErrorCode,
  WorkspaceExecOptions,
  WorkspaceExecResult,
  WorkspaceReadOptions,
  WorkspaceReadResult,
  WorkspaceService,
  WorkspaceStat as WorkspaceStatInfo,
  WorkspaceWriteOptions,
} from './v1/workspace-types.js';

export {
  SANDBOX_METHODS,
  SandboxBackendContribution,
  SandboxExec,
  SandboxMkdir,
  SandboxPrepare,
  SandboxPrepareParams,
  SandboxPrepareResult,
  SandboxRead,
  SandboxReadDirectory,
  SandboxRelease,
  SandboxRemove,
  SandboxRename,
  SandboxStat,
  SandboxWrite,
} from './v1/sandbox.js';
export { directGrant, newDirectSecret, verifyDirectGrant } from './direct-grant.js';
export { DIRECT_METHODS, DIRECT_OPERATIONS, DIRECT_SOCKET_PATH_MAX_BYTES, DirectRead, DirectReadDirectory, DirectStat, SandboxDirectFailure, WorkspaceChannel } from './v1/direct-channel.js';
export type { DirectOperation } from './v1/direct-channel.js';
export { SANDBOX_ADMIN_METHODS, SandboxAdminAgent, SandboxAdminCheck, SandboxAdminImageBuild, SandboxAdminList, SandboxAdminPrune, SandboxAdminRecreate, SandboxCheckStep, SandboxListing, RecreateTargetSchema, adminCapability } from './v1/sandbox-admin.js';
export type { SandboxAdminOperation, SandboxAdminParams, SandboxAdminResult } from './v1/sandbox-admin.js';

export {
  ChannelAction, ChannelActionParams, ChannelActionResult, ChannelActions, ChannelContribution, ChannelId, ChannelOutcome, MessageSource,
} from './v1/channels.js';
export { NODE_ERROR_CODES, NodeCommandName, NodeContribution, NodeInvoke, NodeInvokeParams, NodeInvokeResult } from './v1/nodes.js';
export type { NodeErrorCode } from './v1/nodes.js';

export {
  SkillEntry,
  SkillFinding,
  SkillInstallSpec,
  SkillManifest,
  SkillSkip,
  SkillSourceContribution,
  SkillsList,
  SkillsListChanged,
  SkillsListChangedParams,
  SkillsListParams,
  SkillsListResult,
  SkillsLoadOptions,
} from './v1/skills.js';

export { MAX_RUNNING_CHILDREN, RunDescribe, RunInfo, SessionQuery, SessionQueryParams, TURNS_METHODS, TURN_REFUSAL_REASONS, TurnStart, TurnStartParams, TurnStartResult, TurnState } from './v1/turns.js';
export type { TurnRefusalReason } from './v1/turns.js';
export {
  TASKS_METHODS, TASK_KINDS, TaskRecord, TaskState, TasksCancel, TasksCancelRequested, TasksQuery, TasksQueryParams, TasksRecord, TasksReport, TasksRequestCancel,
} from './v1/tasks.js';

export { CancelRequest, Log, LogLevel, LogParams, Ping, ProgressNotification, Shutdown } from './v1/lifecycle.js';

export { PROTOCOL_V1_METHODS } from './v1/registry.js';

export { FramingError, InvalidMessageError, MessageTooLargeError, previewBytes } from './transport/errors.js';
export { NdjsonDecoder } from './transport/ndjson-decoder.js';
export type { DecodedFrame } from './transport/ndjson-decoder.js';
export { NdjsonMessageReader } from './transport/reader.js';
export { NdjsonMessageWriter } from './transport/writer.js';
export { createLinkedPair, createStreamTransport } from './transport/linked-pair.js';
export type { MessageTransport } from './transport/linked-pair.js';

// The core vocabulary (tool ids, groups, profiles, aliases, message actions): data both sides read.
export {
  REFERENCE_RELEASE, CORE_TOOL_SECTIONS, CORE_TOOL_DEFINITIONS, TOOL_NAME_ALIASES, CHANNEL_MESSAGE_ACTION_NAMES,
  SANDBOX_DEFAULT_TOOL_ALLOW, SANDBOX_DEFAULT_TOOL_DENY, CORE_GROUP, CORE_GROUP_REFERENCE_ALIAS, PLUGINS_GROUP,
  BUNDLE_MCP_PLUGIN_ID, TOOL_PROFILE_IDS, CORE_TOOL_GROUPS, CORE_TOOL_PROFILES, isKnownCoreToolId, resolveCoreToolProfilePolicy,
  listCoreToolSections,
} from './vocabulary/index.js';
export type { CoreToolDefinition, ToolProfileId } from './vocabulary/index.js';
