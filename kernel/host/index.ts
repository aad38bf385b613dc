/** The kernel's plugin host: spawn, handshake, supervise, route. Named exports only. */
export { createPluginHost } from './host.js';
export type { ContributedTool, InvokeOptions, PluginHost, PluginHostOptions } from './host.js';
export { PluginConfigSchema, PluginTimeoutsSchema, RestartPolicySchema } from './config.js';
export type { PluginConfig, PluginConfigInput, PluginTimeouts, RestartPolicy } from './config.js';
export { KERNEL_ERROR_CODES, KernelError, isKernelError, toKernelError } from './errors.js';
export type { KernelErrorCode } from './errors.js';
export type { WorkspaceHandler } from './connection.js';
export type { HostLogRecord, HostLogger } from './logger.js';
export { defaultHostLogger } from './logger.js';
export { DEFAULT_INHERITED_ENV_VARS, buildPluginEnv } from './env.js';
export { MANIFEST_FILE, PluginManifestSchema, loadManifest } from './manifest.js';
export type { PluginManifest } from './manifest.js';
export type { PluginContributions, PluginLifecycleState, PluginStatus, RequiredPluginsHealth } from './status.js';
export type { ToolRejection, ToolRejectionCode } from './tool-screen.js';
export { escapeForTerminal } from './escape.js';
export type { EscapeOptions } from './escape.js';
export { DEFAULT_CORE_TOOL_PLUGINS } from './tool-owners.js';
export { registeredProcessGroups } from './exit-hook.js';
