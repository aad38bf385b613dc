import type { AnyDescriptor } from '../define.js';
import { ChannelAction } from './channels.js';
import { Handshake } from './handshake.js';
import { PluginStatusChanged } from './plugin-status.js';
import { HookAfterToolCall, HookBeforeToolCall } from './hooks.js';
import { SANDBOX_RUN_METHODS, WORKSPACE_RUN_METHODS } from './exec-runs.js';
import { NodeInvoke } from './nodes.js';
import { CancelRequest, Log, Ping, ProgressNotification, Shutdown } from './lifecycle.js';
import { SANDBOX_METHODS, SandboxPrepare, SandboxRelease } from './sandbox.js';
import { DIRECT_METHODS, SandboxDirectFailure } from './direct-channel.js';
import { SANDBOX_ADMIN_METHODS } from './sandbox-admin.js';
import { SkillsList, SkillsListChanged } from './skills.js';
import { ToolInvoke, ToolProgress, ToolsListChanged } from './tools.js';
import { ExecProgress, WORKSPACE_METHODS } from './workspace.js';
import { TASKS_METHODS } from './tasks.js';
import { TURNS_METHODS } from './turns.js';

/**
 * Every method and progress stream of protocol v1, in documentation order.
 * The JSON Schema export and the drift tests walk this list.
 * @since 1
 */
export const PROTOCOL_V1_METHODS: readonly AnyDescriptor[] = Object.freeze([
  Handshake,
  Shutdown,
  Ping,
  CancelRequest,
  ProgressNotification,
  Log,
  ToolInvoke,
  ToolsListChanged,
  ToolProgress,
  HookBeforeToolCall,
  HookAfterToolCall,
  ...Object.values(WORKSPACE_METHODS),
  ExecProgress,
  SandboxPrepare,
  SandboxRelease,
  ...Object.values(SANDBOX_METHODS),
  SandboxDirectFailure,
  ...Object.values(DIRECT_METHODS),
  ...Object.values(WORKSPACE_RUN_METHODS),
  ...Object.values(SANDBOX_RUN_METHODS),
  ...Object.values(SANDBOX_ADMIN_METHODS),
  SkillsList,
  SkillsListChanged,
  ...Object.values(TURNS_METHODS),
  ...Object.values(TASKS_METHODS),
  PluginStatusChanged,
  ChannelAction,
  NodeInvoke,
] as AnyDescriptor[]);
