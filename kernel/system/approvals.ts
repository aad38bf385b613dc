/**
 * Approvals the host arms for the system tool. An approval is an object only this module can
 * mint (a JSON value, whatever its fields, is never one), bound to the digest of exactly one
 * action with its params, usable once, and expiring. Nothing a model sends can arm one: the
 * host calls `arm` after it has decided that a human approved that very action.
 */
import { createHash, randomUUID } from 'node:crypto';
import { stableStringify } from '../shared/stable-stringify.js';

/** Opaque proof that the host approved one action. */
export interface ArmedApproval {
  readonly id: string;
  readonly action: string;
  readonly expiresAt: number;
}

interface Arming {
  digest: string;
  used: boolean;
}

export const DEFAULT_APPROVAL_TTL_MS = 5 * 60_000;

/** The digest an approval is bound to: the action and its params, minus any `approved` field. */
export function actionDigest(params: Record<string, unknown>): string {
  const { approved: _ignored, ...bound } = params;
  return createHash('sha256').update(stableStringify(bound)).digest('hex');
}

export class ApprovalArming {
  readonly #armed = new WeakMap<ArmedApproval, Arming>();

  constructor(
    private readonly ttlMs = DEFAULT_APPROVAL_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  arm(params: Record<string, unknown>): ArmedApproval {
    const approval: ArmedApproval = Object.freeze({ id: randomUUID(), action: String(params.action), expiresAt: this.now() + this.ttlMs });
    this.#armed.set(approval, { digest: actionDigest(params), used: false });
    return approval;
  }

  /** Consumes the approval for `params`; returns why it does not count, or undefined when it does. */
  consume(approval: unknown, params: Record<string, unknown>): string | undefined {
    if (approval === undefined || approval === null) return 'no approval was armed by the host for this action';
    const arming = typeof approval === 'object' ? this.#armed.get(approval as ArmedApproval) : undefined;
    if (!arming) return 'the approval was not armed by this host (approvals cannot be written as data)';
    if (arming.used) return 'the approval was already used; each approval covers one action once';
    if ((approval as ArmedApproval).expiresAt < this.now()) return 'the approval expired';
    if (arming.digest !== actionDigest(params)) return 'the approval was armed for a different action or different params';
    arming.used = true;
    return undefined;
  }
}
