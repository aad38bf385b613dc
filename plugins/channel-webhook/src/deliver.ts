/**
 * Delivery with retries: exponential backoff with jitter (honouring Retry-After), every attempt
 * carrying the same delivery id so a receiver can drop duplicates, and no attempt started that
 * could not finish before the kernel's deadline. The verdict: delivered; failed only when no
 * attempt can have reached the endpoint (or it refused outright); otherwise delivery unknown.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChannelActionResult } from '../../../protocol/index.js';
import { postOnce, type AttemptOutcome } from './post.js';
import { ATTEMPT_HEADER, DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signBody } from './sign.js';

export interface DeliveryPlan {
  url: URL;
  key: Buffer;
  body: string;
  deliveryId: string;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
  /** Wall-clock time by which an answer is due. */
  deadline?: number;
  signal?: AbortSignal;
  /** Seeded in tests; Math.random otherwise. */
  random?: () => number;
}

/** The shortest attempt worth starting. */
const MIN_ATTEMPT_MS = 100;

function backoff(plan: DeliveryPlan, attempt: number, hinted: number | undefined): number {
  const exponential = Math.min(plan.maxBackoffMs, plan.backoffMs * 2 ** (attempt - 1));
  const jittered = exponential / 2 + (plan.random ?? Math.random)() * (exponential / 2);
  return Math.min(plan.maxBackoffMs, Math.max(jittered, hinted ?? 0));
}

function headers(plan: DeliveryPlan, attempt: number): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'pincer-channel-webhook/0.1.0',
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signBody(plan.key, timestamp, plan.body),
    [DELIVERY_HEADER]: plan.deliveryId,
    [ATTEMPT_HEADER]: String(attempt),
  };
}

export async function deliver(plan: DeliveryPlan): Promise<ChannelActionResult> {
  let reached = false;
  let last: AttemptOutcome | undefined;
  let attempts = 0;
  for (let attempt = 1; attempt <= plan.retries + 1; attempt += 1) {
    const left = plan.deadline === undefined ? plan.timeoutMs : plan.deadline - Date.now();
    if (left < MIN_ATTEMPT_MS || plan.signal?.aborted) break;
    attempts = attempt;
    last = await postOnce(plan.url, headers(plan, attempt), plan.body, Math.min(plan.timeoutMs, left), plan.signal);
    if (last.kind === 'delivered') return { status: 'ok', attempts, ...(last.messageId ? { messageId: last.messageId } : {}) };
    if (last.kind === 'rejected') {
      // A refusal after an earlier attempt that may have got through proves nothing about that one.
      return { status: reached ? 'unknown' : 'failed', attempts, detail: `the endpoint refused it (${last.detail})` };
    }
    reached ||= last.reached;
    if (attempt > plan.retries) break;
    const wait = backoff(plan, attempt, last.retryAfterMs);
    if (plan.deadline !== undefined && Date.now() + wait + MIN_ATTEMPT_MS > plan.deadline) break;
    try {
      await sleep(wait, undefined, { signal: plan.signal });
    } catch {
      break; // cancelled while waiting
    }
  }
  const why = last && last.kind === 'retry' ? last.detail : 'no attempt could be made before the deadline';
  return { status: reached ? 'unknown' : 'failed', attempts, detail: `${attempts} attempt${attempts === 1 ? '' : 's'}; last: ${why}` };
}
