import { argumentChurnStreak } from './argument-churn.js';
import type { ResolvedLoopDetectionConfig } from './config.js';
import { hashToolCall, isKnownPollToolCall } from './hashing.js';
import { noProgressStreak, pingPongStreak, unknownToolStreak, type LoopHistoryRecord } from './history.js';

/** Names of the six detectors. */
export type LoopDetectorKind =
  | 'unknown_tool_repeat'
  | 'global_circuit_breaker'
  | 'known_poll_no_progress'
  | 'ping_pong'
  | 'generic_repeat'
  | 'argument_churn';

/** The verdict for one prospective call. `critical` vetoes the call; `warning` is advice. */
export type LoopCheckResult =
  | { stuck: false }
  | {
      stuck: true;
      level: 'warning' | 'critical';
      detector: LoopDetectorKind;
      count: number;
      message: string;
      /** Same key = same warning; hosts log a key once. */
      warningKey: string;
      pairedToolName?: string;
      /** `argument_churn` when the run cycles through argument variants with one stable failing outcome. */
      livenessSignal?: 'argument_churn';
    };

type Stuck = Extract<LoopCheckResult, { stuck: true }>;

function stuck(level: Stuck['level'], detector: LoopDetectorKind, count: number, message: string, warningKey: string): Stuck {
  return { stuck: true, level, detector, count, message, warningKey };
}

/**
 * Run the detectors in order; the first that fires decides: unknown tool, circuit breaker,
 * polling (critical, warning), ping-pong (critical, warning), generic repeat (critical),
 * argument churn (warning), generic repeat (warning). While the run churns, the poll and
 * ping-pong warnings carry the `argument_churn` liveness signal too (as in the release).
 */
export function detectLoop(
  history: readonly LoopHistoryRecord[],
  toolName: string,
  params: unknown,
  config: ResolvedLoopDetectionConfig,
  argsHash?: string,
): LoopCheckResult {
  const signature = argsHash ?? hashToolCall(toolName, params);
  const unknown = unknownToolStreak(history, toolName);
  if (unknown.count >= config.unknownToolThreshold) {
    const missing = unknown.name ?? toolName;
    return stuck('critical', 'unknown_tool_repeat', unknown.count,
      `CRITICAL: you have tried the unavailable tool ${missing} ${unknown.count} times. Stop calling that missing tool and answer without it.`,
      `unknown-tool:${toolName}:${missing}`);
  }
  const streak = noProgressStreak(history, toolName, signature);
  if (streak >= config.globalCircuitBreakerThreshold) {
    return stuck('critical', 'global_circuit_breaker', streak,
      `CRITICAL: ${toolName} has produced the same no-progress outcome ${streak} times. The global circuit breaker has blocked further execution to stop a runaway loop.`,
      `global:${toolName}:${signature}`);
  }
  const poll = isKnownPollToolCall(toolName, params);
  // Only a warning reads the churn; most calls end before one, so it is measured on demand.
  let churnMemo: ReturnType<typeof argumentChurnStreak> | undefined;
  const churn = () => (churnMemo ??= argumentChurnStreak(history, toolName, signature));
  const liveness = () => (churn().count >= config.warningThreshold ? { livenessSignal: 'argument_churn' as const } : {});
  if (poll && config.detectors.knownPollNoProgress) {
    if (streak >= config.criticalThreshold) {
      return stuck('critical', 'known_poll_no_progress', streak,
        `CRITICAL: ${toolName} was called ${streak} times with identical arguments and no progress. This is a stuck polling loop, so execution is blocked to save resources.`,
        `poll:${toolName}:${signature}`);
    }
    if (streak >= config.warningThreshold) {
      return { ...stuck('warning', 'known_poll_no_progress', streak,
        `WARNING: ${toolName} has been called ${streak} times with identical arguments and no progress. Stop polling: either (1) wait longer between checks, or (2) report the task as failed if the process is stuck.`,
        `poll:${toolName}:${signature}`), ...liveness() };
    }
  }
  if (config.detectors.pingPong) {
    const pingPong = pingPongStreak(history, signature);
    // Built only for a verdict: sorting and joining two digests on every call was measurable.
    const key = () => `pingpong:${[signature, pingPong.pairedSignature ?? ''].sort().join('|')}`;
    if (pingPong.count >= config.criticalThreshold && pingPong.noProgressEvidence) {
      return { ...stuck('critical', 'ping_pong', pingPong.count,
        `CRITICAL: you are alternating between the same tool-call patterns (${pingPong.count} consecutive calls) with no progress. This is a stuck ping-pong loop, so execution is blocked to save resources.`,
        key()), pairedToolName: pingPong.pairedToolName };
    }
    if (pingPong.count >= config.warningThreshold) {
      return { ...stuck('warning', 'ping_pong', pingPong.count,
        `WARNING: you are alternating between the same tool-call patterns (${pingPong.count} consecutive calls). This looks like a ping-pong loop; stop retrying and report the task as failed.`,
        key()), pairedToolName: pingPong.pairedToolName, ...liveness() };
    }
  }
  if (!poll && config.detectors.genericRepeat) {
    if (streak >= config.criticalThreshold) {
      return stuck('critical', 'generic_repeat', streak,
        `CRITICAL: ${toolName} was called ${streak} times with identical arguments and identical outcomes. Execution is blocked to stop a runaway loop.`,
        `generic:${toolName}:${signature}`);
    }
  }
  const { count: churned, variantCount } = churn();
  if (churned >= config.warningThreshold) {
    // A warning only: the call runs, but the run is reported as stalled (liveness signal).
    return { ...stuck('warning', 'argument_churn', churned,
      `WARNING: ${toolName} made no progress ${churned} times across ${variantCount} argument variants, with the same outcome each time. Changing the arguments is not helping; stop and report what is blocking you.`,
      `argument-churn:${toolName}`), livenessSignal: 'argument_churn' };
  }
  if (!poll && config.detectors.genericRepeat) {
    let repeats = 0;
    for (const record of history) if (record.argsHash === signature) repeats += 1;
    if (repeats >= config.warningThreshold) {
      return stuck('warning', 'generic_repeat', repeats,
        `WARNING: you have called ${toolName} ${repeats} times with identical arguments. If this is not making progress, stop retrying and report the task as failed.`,
        `generic:${toolName}:${signature}`);
    }
  }
  return { stuck: false };
}
