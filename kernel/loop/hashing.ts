import { createHash } from 'node:crypto';
import { isPlainObject } from '../shared/plain-object.js';
import { stableStringify } from '../shared/stable-stringify.js';

// A run hashes the same text again and again: each call's params at check, start and outcome,
// and a repeated call's identical result. Short texts keep their digest; bounded, oldest evicted.
const DIGEST_MEMO_LIMIT = 512;
const MEMO_TEXT_MAX = 2048;
const digests = new Map<string, string>();

/** sha256 hex of the stable text of a value. */
export function digestValue(value: unknown): string {
  const text = stableStringify(value);
  if (text.length > MEMO_TEXT_MAX) return createHash('sha256').update(text).digest('hex');
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHash('sha256').update(text).digest('hex');
    if (digests.size >= DIGEST_MEMO_LIMIT) digests.delete(digests.keys().next().value as string);
    digests.set(text, digest);
  }
  return digest;
}

/**
 * `update_plan` keeps only the plan's shape: rewording a step is not progress, changing
 * a status or adding a step is.
 */
export function reducePlanForHash(value: unknown): Record<string, unknown> {
  const record = isPlainObject(value) ? value : {};
  const plan = Array.isArray(record.plan) ? record.plan : [];
  return {
    planLength: plan.length,
    statuses: plan.map((step) => (isPlainObject(step) && typeof step.status === 'string' ? step.status : null)),
    stepPresence: plan.map((step) => isPlainObject(step) && typeof step.step === 'string' && step.step.trim() !== ''),
    hasExplanation: typeof record.explanation === 'string' && record.explanation.trim() !== '',
  };
}

// The signature of a memoized digest, per tool: one string object per call signature, so the
// detectors' scans of the window compare signatures by identity instead of character by character.
const signatures = new Map<string, Map<string, string>>();
let signatureCount = 0;

/** The call signature the detectors compare: `<tool>:<sha256 of sorted-key params>`. */
export function hashToolCall(toolName: string, params: unknown): string {
  const hashed = toolName === 'update_plan' ? reducePlanForHash(params) : params;
  const digest = digestValue(hashed);
  let ofTool = signatures.get(toolName);
  let signature = ofTool?.get(digest);
  if (signature !== undefined) return signature;
  signature = `${toolName}:${digest}`;
  if (signatureCount >= DIGEST_MEMO_LIMIT) {
    signatures.clear();
    signatureCount = 0;
    ofTool = undefined;
  }
  if (!ofTool) signatures.set(toolName, (ofTool = new Map()));
  ofTool.set(digest, signature);
  signatureCount += 1;
  return signature;
}

/** Tools that poll a running job; repeating them is expected until their output stops changing. */
export function isKnownPollToolCall(toolName: string, params: unknown): boolean {
  if (toolName === 'command_status') return true;
  if (toolName !== 'process' || !isPlainObject(params)) return false;
  return params.action === 'poll' || params.action === 'log';
}

const UNKNOWN_TOOL_PATTERNS = [
  /unknown tool[:\s]+["']?([a-z0-9_.-]+)["']?/i,
  /tool\s+["']?([a-z0-9_.-]+)["']?\s+(?:not found|is not available)/i,
];

/** Text used to hash an error: its message, else its name, else a stable rendering. */
export function errorTextForHash(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  if (typeof error === 'number' || typeof error === 'boolean' || typeof error === 'bigint') return String(error);
  return stableStringify(error);
}

/** The missing tool's name when an error says "unknown tool X" or "tool X not found". */
export function extractUnknownToolName(error: unknown): string | undefined {
  const text = errorTextForHash(error).trim();
  for (const pattern of UNKNOWN_TOOL_PATTERNS) {
    const name = text.match(pattern)?.[1]?.trim();
    if (name) return name.toLowerCase();
  }
  return undefined;
}
