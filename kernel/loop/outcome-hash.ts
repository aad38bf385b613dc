import { isPlainObject } from '../shared/plain-object.js';
import { execFailureIdentity, isTerminalExecFailure } from './exec-failure.js';
import { digestValue, errorTextForHash, extractUnknownToolName, reducePlanForHash } from './hashing.js';

/** What a finished call contributes to the history; neither a hash nor a kind means "record nothing". */
export interface OutcomeHash {
  resultHash?: string;
  outcomeKind?: 'tool-loop-veto' | 'terminal-exec-failure';
  /** For a terminal exec failure: the failure without its volatile parts, equal across changed commands. */
  failureIdentityHash?: string;
  /** No progress whatever the arguments (feeds the argument-churn detector). */
  noProgress?: boolean;
  unknownToolName?: string;
}

const SEND_LIKE_MESSAGE_ACTIONS = new Set([
  'send', 'broadcast', 'reply', 'thread-reply', 'sendWithEffect', 'sendAttachment', 'upload-file', 'sticker', 'poll',
]);

/** Ids and clocks that differ on every send, so two identical sends would never look like a loop. */
const VOLATILE_SEND_KEYS = new Set([
  'messageId', 'message_id', 'messageIds', 'platformMessageId', 'platformMessageIds', 'fileId', 'file_id', 'fileKey',
  'pollId', 'poll_id', 'receipt', 'runId', 'idempotencyKey', 'ts', 'timestamp', 'sentAt', 'deliveredAt', 'createdAt',
]);

// The text blocks joined by newlines, trimmed; a loop, as it runs on every outcome.
function textOf(result: Record<string, unknown>): string {
  if (!Array.isArray(result.content)) return '';
  let text = '';
  let first = true;
  for (const entry of result.content as unknown[]) {
    if (!isPlainObject(entry) || typeof entry.text !== 'string') continue;
    text = first ? entry.text : `${text}\n${entry.text}`;
    first = false;
  }
  return text.trim();
}

function looksLikeDeliveredMessage(value: Record<string, unknown>): boolean {
  return typeof value.id === 'string' && typeof value.text === 'string'
    && (typeof value.direction === 'string' || typeof value.senderId === 'string'
      || typeof value.accountId === 'string' || isPlainObject(value.conversation));
}

/** Remove volatile ids and timestamps, recursively. */
export function stripVolatileSendKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripVolatileSendKeys);
  if (!isPlainObject(value)) return value;
  const dropId = looksLikeDeliveredMessage(value);
  const kept: Record<string, unknown> = {};
  for (const [key, nested] of Object.entries(value)) {
    if (VOLATILE_SEND_KEYS.has(key) || (key === 'id' && dropId)) continue;
    kept[key] = stripVolatileSendKeys(nested);
  }
  return kept;
}

function isSendLike(toolName: string, params: unknown): boolean {
  if (toolName === 'sessions_send') return true;
  return toolName === 'message' && isPlainObject(params) && typeof params.action === 'string'
    && SEND_LIKE_MESSAGE_ACTIONS.has(params.action);
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function hashExecOutcome(details: Record<string, unknown>, text: string): string | undefined {
  const status = str(details.status);
  if (status === 'running') return digestValue({ status, tail: str(details.tail) ?? '' });
  if (status === 'completed' || status === 'failed') {
    return digestValue({
      status,
      exitCode: typeof details.exitCode === 'number' ? details.exitCode : null,
      timedOut: details.timedOut === true,
      output: str(details.aggregated) || text,
    });
  }
  if (status === 'approval-pending' || status === 'approval-unavailable') {
    return digestValue({
      status, reason: str(details.reason), host: str(details.host),
      command: str(details.command) ?? '', warningText: str(details.warningText) ?? '',
    });
  }
  return undefined;
}

function hashProcessPoll(params: Record<string, unknown>, d: Record<string, unknown>, text: string): string | undefined {
  const common = { status: d.status ?? null, exitCode: d.exitCode ?? null, exitSignal: d.exitSignal ?? null };
  if (params.action === 'poll') return digestValue({ action: 'poll', ...common, aggregated: d.aggregated ?? null, text });
  if (params.action === 'log') {
    return digestValue({
      action: 'log', ...common, totalLines: d.totalLines ?? null, totalChars: d.totalChars ?? null,
      truncated: d.truncated ?? null, text,
    });
  }
  return undefined;
}

/** Hash a finished call's result or error so repeats with identical outcomes can be counted. */
export function hashToolOutcome(toolName: string, params: unknown, result: unknown, error: unknown): OutcomeHash {
  if (error !== undefined) {
    return { resultHash: `error:${digestValue(errorTextForHash(error))}`, noProgress: true, unknownToolName: extractUnknownToolName(error) };
  }
  if (!isPlainObject(result)) return { resultHash: result === undefined ? undefined : digestValue(result) };
  const details = isPlainObject(result.details) ? result.details : {};
  // A loop veto has no outcome to compare, but it is recorded: it counts toward its call's streak.
  if (details.status === 'blocked' && details.deniedReason === 'tool-loop') return { outcomeKind: 'tool-loop-veto' };
  const text = textOf(result);
  if (toolName === 'exec') {
    const execHash = hashExecOutcome(details, text);
    const output = str(details.aggregated) || text;
    if (execHash && isTerminalExecFailure(details, output)) {
      return { resultHash: execHash, outcomeKind: 'terminal-exec-failure', failureIdentityHash: execFailureIdentity(details, output) };
    }
    if (execHash) return { resultHash: execHash };
  }
  // A write that changed nothing is the same non-event whatever was written (the release's rule).
  if (toolName === 'write' && details.changed === false) return { resultHash: digestValue({ status: 'unchanged' }), noProgress: true };
  if (toolName === 'process' && isPlainObject(params)) {
    const pollHash = hashProcessPoll(params, details, text);
    if (pollHash) return { resultHash: pollHash };
  }
  if (isSendLike(toolName, params)) return { resultHash: digestValue(stripVolatileSendKeys(details)) };
  if (toolName === 'update_plan') return { resultHash: digestValue({ details: reducePlanForHash(details), text: '' }) };
  return { resultHash: digestValue({ details, text }) };
}
