import type { Contributions } from '../../protocol/index.js';
import type { KernelErrorCode } from './errors.js';
import type { ToolRejection } from './tool-screen.js';

/** Lifecycle state of one plugin. `lazy`: known from its manifest, not started yet. */
export type PluginLifecycleState = 'lazy' | 'starting' | 'ready' | 'restarting' | 'stopping' | 'failed' | 'stopped';

/** What an operator sees about one plugin (`host.status()`). */
export interface PluginStatus {
  id: string;
  state: PluginLifecycleState;
  pid?: number;
  /** Restarts after crashes since the host started. */
  restarts: number;
  /** Crashes inside the current crash window. */
  recentCrashes: number;
  lastError?: { code: KernelErrorCode; message: string; at: string };
  protocolVersion?: number;
  pluginVersion?: string;
  /** How long the last successful start took, from spawn to the handshake answer (ms). */
  startMs?: number;
  required: boolean;
  lazy: boolean;
  transport: 'fd3' | 'stdio';
  inflight: number;
  /** Number of contributed tools currently cached. */
  tools: number;
  /** Tools the kernel refused from this plugin's latest list (bad name or schema, a name another plugin owns...), with the reason. */
  rejectedTools: ToolRejection[];
}

/** One plugin's cached contributions, as assembly reads them. */
export interface PluginContributions {
  pluginId: string;
  state: PluginLifecycleState;
  required: boolean;
  contributes: Contributions;
}

/** Result of the fail-closed check for an agent's plugins. */
export interface RequiredPluginsHealth {
  healthy: boolean;
  problems: Array<{ pluginId: string; state: PluginLifecycleState | 'missing'; reason: string }>;
}
