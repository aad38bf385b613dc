import type { AnyDescriptor } from '../define.js';
import { ChannelAction } from './channels.js';
import { Handshake } from './handshake.js';
import { HookAfterToolCall, HookBeforeToolCall } from './hooks.js';
import { SANDBOX_RUN_METHODS, WORKSPACE_RUN_METHODS } from './exec-runs.js';
import { NodeInvoke } from './nodes.js';
import { CancelRequest, Log, Ping, ProgressNotification, Shutdown } from './lifecycle.js';
import { SANDBOX_METHODS, SandboxPrepare, SandboxRelease } from './sandbox.js';
import { SANDBOX_ADMIN_METHODS } from './sandbox-admin.js';
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
  SandboxPrepare,
  SandboxRelease,
  ...Object.values(SANDBOX_METHODS),
  ...Object.values(WORKSPACE_RUN_METHODS),
  ...Object.values(SANDBOX_RUN_METHODS),
  ...Object.values(SANDBOX_ADMIN_METHODS),
  SkillsList,
  SkillsListChanged,
  ChannelAction,
  NodeInvoke,
] as AnyDescriptor[]);
