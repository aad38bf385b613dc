import type { KernelError } from './errors.js';
import type { PluginLifecycleState } from './status.js';

/** A plugin moved from one lifecycle state to another; `error` is why, when it went wrong. */
export interface PluginStateChange {
  pluginId: string;
  from: PluginLifecycleState;
  to: PluginLifecycleState;
  error?: KernelError;
}

/** A confined plugin tried what it did not declare: a `CONFINEMENT_DENIED` answer, or its proxy's refusal. */
export interface ConfinementDenial {
  pluginId: string;
  /** The plugin's own words (a tool's error) or the proxy's ("tried to connect to host:port"). */
  message: string;
  tool?: string;
  agentId?: string;
  /** The session handle the call carried (what the plugin sees), not the session key. */
  session?: string;
  toolCallId?: string;
}

/**
 * Where the host reports the decisions it makes or sees (the kernel's audit trail). A returned
 * promise is awaited before the denied call settles, so the record is durable first; it must
 * never reject.
 */
export interface HostDecisionSink {
  stateChanged?(change: PluginStateChange): void;
  confinementDenied?(denial: ConfinementDenial): Promise<void> | void;
}
