import * as z from 'zod';
import { defineRequest } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/** Hook names a plugin may register. @since 1 */
export const HOOK_NAMES = ['before_tool_call', 'after_tool_call'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/**
 * Every hook in one table, with its merge rule and failure policy, so no caller writes its own.
 * `denyWins`: once any handler blocks, nothing later can unblock. A failing `modify` hook is a veto.
 * @since 1
 */
export const HOOK_TABLE = Object.freeze({
  before_tool_call: { method: 'hook/beforeToolCall', mode: 'modify', merge: 'denyWins', onFailure: 'closed', defaultTimeoutMs: 15_000 },
  after_tool_call: { method: 'hook/afterToolCall', mode: 'observe', merge: 'none', onFailure: 'open', defaultTimeoutMs: 30_000 },
} as const);

/** A hook registration in the handshake. @since 1 */
export const HookContribution = lazySchema(() => z.object({
  name: z.enum(HOOK_NAMES),
  /** Higher runs first; missing = 0; ties keep registration order. */
  priority: z.number().int().optional(),
  /** Tool names (or globs) the hook applies to; missing = all tools. */
  tools: z.array(z.string()).optional(),
  /** Deadline of one call; it can only shorten the operator's `hookMs`, never lengthen it. */
  timeoutMs: z.number().int().positive().optional(),
}));
export type HookContribution = z.infer<typeof HookContribution>;

/** @since 1 */
export const BeforeToolCallEvent = lazySchema(() => z.object({
  toolName: z.string(),
  params: z.record(z.string(), z.unknown()),
  toolCallId: z.string().optional(),
  sessionKey: z.string().optional(),
  agentId: z.string().optional(),
  /** Plugin that owns the tool. */
  toolPluginId: z.string().optional(),
}));
export type BeforeToolCallEvent = z.infer<typeof BeforeToolCallEvent>;

/** An approval the hook asks the operator for. @since 1 */
export const ApprovalRequest = lazySchema(() => z.object({
  title: z.string(),
  description: z.string(),
  severity: z.enum(['info', 'warning', 'critical']).optional(),
  timeoutMs: z.number().int().positive().optional(),
  timeoutReason: z.string().optional(),
  allowedDecisions: z.array(z.enum(['allow-once', 'allow-always', 'deny'])).optional(),
}));
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/** null = no opinion. @since 1 */
export const BeforeToolCallResult = lazySchema(() => z
  .object({
    block: z.boolean().optional(),
    blockReason: z.string().optional(),
    /** Shallow-merged over the call's params. */
    params: z.record(z.string(), z.unknown()).optional(),
    requireApproval: ApprovalRequest.optional(),
  })
  .nullable());
export type BeforeToolCallResult = z.infer<typeof BeforeToolCallResult>;

/** Asks a plugin's before_tool_call hook about one call. @since 1 */
export const HookBeforeToolCall = defineRequest('hook/beforeToolCall', BeforeToolCallEvent, BeforeToolCallResult, {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Policy hook before a tool call: may block, rewrite params or require approval. A failure or timeout is a veto (fail closed).',
});

/** @since 1 */
export const AfterToolCallEvent = lazySchema(() => BeforeToolCallEvent.extend({
  result: z.unknown().optional(),
  error: z.string().optional(),
  durationMs: z.number().nonnegative(),
}));
export type AfterToolCallEvent = z.infer<typeof AfterToolCallEvent>;

/** Tells an observer a call finished. Its result is ignored; failures are only logged. @since 1 */
export const HookAfterToolCall = defineRequest('hook/afterToolCall', AfterToolCallEvent, lazySchema(() => z.null()), {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Observer after a tool call finished. Result ignored; a failure never fails the finished call (fail open).',
});
