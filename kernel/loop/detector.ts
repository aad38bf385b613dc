import { resolveLoopDetectionConfig, type ResolvedLoopDetectionConfig, type ToolLoopDetectionConfig } from './config.js';
import { detectLoop, type LoopCheckResult } from './detectors.js';
import { hashToolCall } from './hashing.js';
import type { LoopHistoryRecord } from './history.js';
import { hashToolOutcome } from './outcome-hash.js';

/** A finished call: its result, or the error it threw. */
export interface LoopOutcome {
  toolName: string;
  params: unknown;
  toolCallId?: string;
  result?: unknown;
  error?: unknown;
  /** `hashToolCall(toolName, params)` when the caller already has it (the gate hashes a call once). */
  argsHash?: string;
}

/** One run's loop detector. Create one per run: the history is that run's, never shared. */
export interface ToolLoopDetector {
  readonly config: ResolvedLoopDetectionConfig;
  /**
   * Verdict for a call about to run; always `{stuck:false}` when detection is disabled.
   * `argsHash`, when given, must be `hashToolCall(toolName, params)`: it saves hashing again.
   */
  check(toolName: string, params: unknown, argsHash?: string): LoopCheckResult;
  /** Remember that a call is starting (`argsHash` as for `check`). */
  recordCall(toolName: string, params: unknown, toolCallId?: string, argsHash?: string): void;
  /** Attach the outcome to the matching started call (or append one). */
  recordOutcome(outcome: LoopOutcome): void;
  /** A copy of the window, oldest first (for diagnostics and tests). */
  history(): LoopHistoryRecord[];
}

/** Build a detector from `tools.loopDetection` config (resolved with the seed-era fix-ups). */
export function createToolLoopDetector(config?: ToolLoopDetectionConfig, now: () => number = Date.now): ToolLoopDetector {
  const resolved = resolveLoopDetectionConfig(config);
  const records: LoopHistoryRecord[] = [];
  const trim = () => {
    // One record in, one out: shift is the common case and cheaper than splice on a full window.
    if (records.length === resolved.historySize + 1) records.shift();
    else if (records.length > resolved.historySize) records.splice(0, records.length - resolved.historySize);
  };
  return {
    config: resolved,
    check(toolName, params, argsHash) {
      return resolved.enabled ? detectLoop(records, toolName, params, resolved, argsHash) : { stuck: false };
    },
    recordCall(toolName, params, toolCallId, argsHash) {
      records.push({ toolName, argsHash: argsHash ?? hashToolCall(toolName, params), toolCallId, timestamp: now() });
      trim();
    },
    recordOutcome({ toolName, params, toolCallId, result, error, argsHash: known }) {
      const outcome = hashToolOutcome(toolName, params, result, error);
      if (!outcome.resultHash && !outcome.outcomeKind) return;
      const argsHash = known ?? hashToolCall(toolName, params);
      const pending = findPending(records, toolName, argsHash, toolCallId);
      if (pending) {
        // As Object.assign(pending, { unknownToolName: undefined, failureIdentityHash: undefined, ...outcome }), without the copy.
        pending.unknownToolName = outcome.unknownToolName;
        pending.failureIdentityHash = outcome.failureIdentityHash;
        Object.assign(pending, outcome);
        if (!outcome.noProgress) delete pending.noProgress;
      } else records.push({ toolName, argsHash, toolCallId, timestamp: now(), ...outcome });
      trim();
    },
    history: () => records.map((record) => ({ ...record })),
  };
}

function findPending(records: LoopHistoryRecord[], toolName: string, argsHash: string, toolCallId?: string) {
  for (let i = records.length - 1; i >= 0; i -= 1) {
    const record = records[i];
    if (toolCallId && record.toolCallId !== toolCallId) continue;
    if (record.toolName !== toolName || record.argsHash !== argsHash || record.resultHash !== undefined || record.outcomeKind !== undefined) continue;
    return record;
  }
  return undefined;
}
