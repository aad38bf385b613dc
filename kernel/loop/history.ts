/** One call in a run's sliding window. */
export interface LoopHistoryRecord {
  toolName: string;
  argsHash: string;
  toolCallId?: string;
  timestamp: number;
  resultHash?: string;
  unknownToolName?: string;
}

/** Newest→oldest count of same tool+args outcomes that equal the newest outcome. */
export function noProgressStreak(history: readonly LoopHistoryRecord[], toolName: string, argsHash: string): number {
  let streak = 0;
  let newest: string | undefined;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const record = history[i];
    if (record.toolName !== toolName || record.argsHash !== argsHash || !record.resultHash) continue;
    if (newest === undefined) newest = record.resultHash;
    else if (record.resultHash !== newest) break;
    streak += 1;
  }
  return streak;
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
