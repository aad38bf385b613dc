import type { AnyDescriptor } from '../define.js';
import { Handshake } from './handshake.js';
import { PluginStatusChanged } from './plugin-status.js';
import { HookAfterToolCall, HookBeforeToolCall } from './hooks.js';
import { CancelRequest, Log, ProgressNotification, Shutdown } from './lifecycle.js';
import { SANDBOX_METHODS, SandboxPrepare, SandboxRelease } from './sandbox.js';
import { SkillsList, SkillsListChanged } from './skills.js';
import { ToolInvoke, ToolProgress, ToolsListChanged } from './tools.js';
import { WORKSPACE_METHODS } from './workspace.js';

/**
 * Every method and progress stream of protocol v1, in documentation order.
 * The JSON Schema export and the drift tests walk this list.
 * @since 1
 */
export const PROTOCOL_V1_METHODS: readonly AnyDescriptor[] = Object.freeze([
  Handshake,
  Shutdown,
  CancelRequest,
  ProgressNotification,
  Log,
  ToolInvoke,
  ToolsListChanged,
  ToolProgress,
  HookBeforeToolCall,
  HookAfterToolCall,
  ...Object.values(WORKSPACE_METHODS),
  SandboxPrepare,
  SandboxRelease,
  ...Object.values(SANDBOX_METHODS),
  SkillsList,
  SkillsListChanged,
  PluginStatusChanged,
] as AnyDescriptor[]);
