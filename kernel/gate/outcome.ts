import type { CallPathError, DeniedReason } from './errors.js';
import type { ApprovalResolution, ToolResult } from './types.js';

/** An approval the operator granted, and what it is bound to. */
export interface GrantedApproval {
  resolution: Extract<ApprovalResolution, 'allow-once' | 'allow-always'>;
  pluginId?: string;
  /** Binding digest of (tool definition, params, sandbox profile); re-checked before execution. */
  digest: string;
  /** The params the operator reviewed (deep-frozen). */
  params: Readonly<Record<string, unknown>>;
  /** True when an earlier allow-always for the same digest answered without asking. */
  remembered: boolean;
}

/** The gate's decision for one call. */
export type GateOutcome =
  | {
      kind: 'allowed';
      params: Record<string, unknown>;
      /** True when a policy or hook changed the params. */
      rewritten: boolean;
      approvals: GrantedApproval[];
      loopWarning?: string;
    }
  /** Returned to the model as a structured "blocked" result so it can change course. */
  | { kind: 'veto'; code: VetoCode; deniedReason: DeniedReason; reason: string; /** The handler's plugin or policy id. */ blockedBy?: string }
  /** Thrown; the tool did not run. */
  | { kind: 'failure'; error: CallPathError };

/**
 * Why a veto happened, machine-readable: a loop, a hook, a trusted policy (or the code it
 * declares, e.g. `REQUIRED_PLUGIN_UNAVAILABLE`), or an approval that timed out with a reason.
 */
export type VetoCode = 'LOOP_DETECTED' | 'HOOK_BLOCKED' | 'POLICY_BLOCKED' | 'APPROVAL_TIMED_OUT' | (string & {});

/**
 * The result the model sees for a vetoed call. Unlike the reference it is an error result
 * (`isError: true`): a naive `is_error` mapping must not report a block as a success.
 */
export function buildBlockedToolResult(reason: string, deniedReason: DeniedReason = 'plugin-before-tool-call'): ToolResult {
  return {
    content: [{ type: 'text', text: reason }],
    details: { status: 'blocked', deniedReason, reason },
    isError: true,
  };
}
