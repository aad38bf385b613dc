/**
 * The plugin author's API, re-exported by `sdk/index.ts`. Named exports only.
 * Depends on `protocol/` only; never on the kernel.
 */
export { definePlugin, defineTool, pluginContributions } from './plugin/define.js';
export { pluginManifest } from './plugin/manifest.js';
export { pluginDataDir } from './plugin/data-dir.js';
export type { PluginManifestFile } from './plugin/manifest.js';
export { CancelledError, NodeError, PluginError, WorkspaceError } from './plugin/errors.js';
export type {
  ActivateResult,
  ChannelDefinition,
  ChannelRequest,
  HandlerContext,
  HookDefinition,
  NodeCommandHandler,
  NodeDefinition,
  PluginDefinition,
  PluginHooks,
  PluginLogger,
  SandboxAdminHandlers,
  SandboxBackendDefinition,
  SandboxOperationContext,
  SandboxOperations,
  SkillSourceChange,
  SkillSourceDefinition,
  TaskLedgerDefinition,
  ToolContext,
  ToolDefinition,
  ToolReturn,
} from './plugin/types.js';
export { serve } from './serve/serve.js';
export { bindPlugin } from './serve/bind.js';
export { TurnRefusedError } from './serve/kernel-client.js';
export type { CallKernelClient, KernelClient } from './serve/kernel-client.js';
export type { BindOptions, PluginRuntime } from './serve/bind.js';
