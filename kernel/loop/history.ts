/** One call in a run's sliding window. */
export interface LoopHistoryRecord {
  toolName: string;
  argsHash: string;
  toolCallId?: string;
  timestamp: number;
  resultHash?: string;
  /** The call made no progress whatever its arguments: it failed, or a `write` changed nothing. */
  noProgress?: boolean;
  /**
   * `tool-loop-veto`: a call loop detection vetoed (no outcome, but it counts toward its call's
   * no-progress streak); `terminal-exec-failure`: an exec that really failed (see exec-failure.ts).
   */
  outcomeKind?: 'tool-loop-veto' | 'terminal-exec-failure';
  /** For a terminal exec failure: the failure without its volatile parts. */
  failureIdentityHash?: string;
  unknownToolName?: string;
}

/**
 * Newest→oldest count of same tool+args outcomes that equal the newest outcome. Vetoed calls
 * in between count too (the release's rule), so a critical block stays and keeps counting;
 * with no outcome at all yet, the count is the vetoes alone. For `exec`, a run of commands
 * that fail the same way counts as well, even when the command changes (`terminalFailureStreak`).
 */
export function noProgressStreak(history: readonly LoopHistoryRecord[], toolName: string, argsHash: string): number {
  let streak = 0;
  let newest: string | undefined;
  let vetoes = 0;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const record = history[i];
    if (record.toolName !== toolName || record.argsHash !== argsHash) continue;
    if (record.outcomeKind === 'tool-loop-veto') {
      vetoes += 1;
      continue;
    }
    if (!record.resultHash) continue;
    if (newest === undefined) newest = record.resultHash;
    else if (record.resultHash !== newest) break;
    streak += vetoes + 1;
    vetoes = 0;
  }
  const repeated = newest === undefined ? vetoes : streak;
  return toolName === 'exec' ? Math.max(repeated, terminalFailureStreak(history, argsHash)) : repeated;
}

/**
 * The newest uninterrupted run of `exec` calls that failed for real with one failure identity,
 * whatever their commands: changing the command is not progress when it fails the same way.
 * The run ends at another tool, at a call that did not fail that way, or where it goes back
 * to the current command after having left it (that part is the plain repeat streak's).
 */
function terminalFailureStreak(history: readonly LoopHistoryRecord[], argsHash: string): number {
  let streak = 0;
  let newest: LoopHistoryRecord | undefined;
  let leftCurrent = false;
  let vetoes = 0;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const record = history[i];
    if (record.toolName !== 'exec') break;
    if (record.outcomeKind === 'tool-loop-veto') {
      vetoes += 1;
      continue;
    }
    if (!record.resultHash) continue;
    if (record.outcomeKind !== 'terminal-exec-failure') break;
    if (!newest) {
      newest = record;
      leftCurrent = record.argsHash !== argsHash;
    } else {
      if (leftCurrent && record.argsHash === argsHash) break;
      if (record.argsHash !== argsHash) leftCurrent = true;
      const sameFailure = record.failureIdentityHash !== undefined && record.failureIdentityHash === newest.failureIdentityHash;
      if (record.resultHash !== newest.resultHash && !sameFailure) break;
    }
    streak += vetoes + 1;
    vetoes = 0;
  }
  return newest ? streak : 0;
}

/** How many of the newest records of this tool failed on the same missing tool name. */
export function unknownToolStreak(history: readonly LoopHistoryRecord[], toolName: string): { count: number; name?: string } {
  let count = 0;
  let name: string | undefined;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const record = history[i];
    if (record.toolName !== toolName || !record.unknownToolName) break;
    if (name === undefined) name = record.unknownToolName;
    else if (record.unknownToolName !== name) break;
    count += 1;
  }
  return { count, name };
}

/** Alternation A,B,A,… at the end of the window, where the current call would be the next B. */
export interface PingPongStreak {
  count: number;
  noProgressEvidence: boolean;
  pairedToolName?: string;
  pairedSignature?: string;
}

export function pingPongStreak(history: readonly LoopHistoryRecord[], currentSignature: string): PingPongStreak {
  const none: PingPongStreak = { count: 0, noProgressEvidence: false };
  const last = history.at(-1);
  if (!last) return none;
  let other: string | undefined;
  for (let i = history.length - 2; i >= 0 && other === undefined; i -= 1) {
    if (history[i].argsHash !== last.argsHash) other = history[i].argsHash;
  }
  if (other === undefined || currentSignature !== other) return none;
  let tail = 0;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const expected = tail % 2 === 0 ? last.argsHash : other;
    if (history[i].argsHash !== expected) break;
    tail += 1;
  }
  if (tail < 2) return none;
  return {
    count: tail + 1,
    noProgressEvidence: hasNoProgressEvidence(history.slice(history.length - tail), last.argsHash),
    pairedToolName: last.toolName,
    pairedSignature: last.argsHash,
  };
}

// Evidence = every call in the tail finished, and each side kept getting one identical outcome.
function hasNoProgressEvidence(tail: readonly LoopHistoryRecord[], signatureA: string): boolean {
  const outcomes = new Map<boolean, string>();
  for (const record of tail) {
    if (!record.resultHash) return false;
    const isA = record.argsHash === signatureA;
    const seen = outcomes.get(isA);
    if (seen === undefined) outcomes.set(isA, record.resultHash);
    else if (seen !== record.resultHash) return false;
  }
  return outcomes.size === 2;
}
