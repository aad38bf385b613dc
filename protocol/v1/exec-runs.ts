import * as z from 'zod';
import { defineRequest, type RequestDescriptor } from '../define.js';
import type * as T from './exec-run-types.js';
import { ExecOutputSegmentSchema, WorkspaceExecOptionsSchema } from './workspace.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * Schemas of the detached command runs (`exec-run-types.ts`) and their methods both ways:
 * `workspace/run*` (tool plugin → kernel) and `sandbox/run*` (kernel → backend plugin).
 * A backend declares each operation it serves as a capability (`runStart`, ...); the kernel
 * checks it before sending.
 */

/** @since 1 */
export const ExecRunInfoSchema = lazySchema(() => z.object({
  runId: z.string(),
  instance: z.string(),
  command: z.string(),
  cwd: z.string().optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  status: z.enum(['running', 'exited', 'killed', 'timed_out', 'failed']),
  timeoutMs: z.number(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  outputBytes: z.number(),
  truncated: z.boolean(),
  strayProcessesKilled: z.boolean().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
}));
/** @since 1 */
export const ExecRunStartResultSchema = lazySchema(() => z.discriminatedUnion('started', [
  z.object({ started: z.literal(true), run: ExecRunInfoSchema }),
  z.object({ started: z.literal(false), limit: z.enum(['session', 'backend']), max: z.number().int(), message: z.string() }),
]));
/** @since 1 */
export const ExecRunReadOptionsSchema = lazySchema(() => z.object({ waitMs: z.number().int().nonnegative().optional() }));
/** @since 1 */
export const ExecRunReadResultSchema = lazySchema(() => z.object({ run: ExecRunInfoSchema.nullable(), output: z.array(ExecOutputSegmentSchema).optional() }));
/** @since 1 */
export const ExecRunListResultSchema = lazySchema(() => z.object({ runs: z.array(ExecRunInfoSchema), instance: z.string() }));
/** @since 1 */
export const ExecRunKillResultSchema = lazySchema(() => z.object({ run: ExecRunInfoSchema.nullable(), killed: z.boolean() }));

/** Each run operation: params (without addressing) and result. Source of both method families. */
export const EXEC_RUN_OPERATIONS = {
  runStart: { params: lazySchema(() => z.object({ command: z.string(), options: WorkspaceExecOptionsSchema.optional() })), result: ExecRunStartResultSchema },
  runList: { params: lazySchema(() => z.object({})), result: ExecRunListResultSchema },
  runRead: { params: lazySchema(() => z.object({ runId: z.string(), options: ExecRunReadOptionsSchema.optional() })), result: ExecRunReadResultSchema },
  runKill: { params: lazySchema(() => z.object({ runId: z.string() })), result: ExecRunKillResultSchema },
} as const;
export type ExecRunOperation = keyof typeof EXEC_RUN_OPERATIONS;
export const EXEC_RUN_OPERATION_NAMES = Object.keys(EXEC_RUN_OPERATIONS) as ExecRunOperation[];

type Op<K extends ExecRunOperation> = (typeof EXEC_RUN_OPERATIONS)[K];
type Addressed<K extends ExecRunOperation, A> = RequestDescriptor<z.ZodType<z.output<Op<K>['params']> & A, z.input<Op<K>['params']> & A>, Op<K>['result']>;

const DOCS: Record<ExecRunOperation, string> = {
  runStart: 'Starts a command the backend owns, detached from the call; answers at once with the run (or a refusal by a limit).',
  runList: 'The runs of the session, running and finished (finished ones are kept for a while).',
  runRead: 'One run and its kept output so far; with options.waitMs, waits up to that long for it to end.',
  runKill: 'Kills the run with its whole process group and answers once it is gone; killed: false when it had already ended.',
};

function workspaceRunMethod<K extends ExecRunOperation>(op: K): Addressed<K, { sessionKey?: string }> {
  const { params, result } = EXEC_RUN_OPERATIONS[op];
  const withSession = lazySchema(() => params.extend({ sessionKey: z.string().optional().describe('Session whose runs are addressed; the kernel fills it from the calling tool/invoke context when omitted.') }));
  return defineRequest(`workspace/${op}`, withSession, result, {
    direction: 'plugin-to-kernel',
    since: 1,
    doc: `${DOCS[op]} The kernel routes it to the session's sandbox backend.`,
    capability: `workspace.${op}`,
  }) as unknown as Addressed<K, { sessionKey?: string }>;
}

function sandboxRunMethod<K extends ExecRunOperation>(op: K): Addressed<K, { session: string }> {
  const { params, result } = EXEC_RUN_OPERATIONS[op];
  return defineRequest(`sandbox/${op}`, lazySchema(() => params.extend({ session: z.string().min(1) })), result, {
    direction: 'kernel-to-plugin',
    since: 1,
    doc: `${DOCS[op]} Served by a backend for one prepared session.`,
    capability: op,
  }) as unknown as Addressed<K, { session: string }>;
}

/** Tool plugin → kernel run methods. @since 1 */
export const WorkspaceRunStart = workspaceRunMethod('runStart');
export const WorkspaceRunList = workspaceRunMethod('runList');
export const WorkspaceRunRead = workspaceRunMethod('runRead');
export const WorkspaceRunKill = workspaceRunMethod('runKill');

/** Kernel → backend run methods. @since 1 */
export const SandboxRunStart = sandboxRunMethod('runStart');
export const SandboxRunList = sandboxRunMethod('runList');
export const SandboxRunRead = sandboxRunMethod('runRead');
export const SandboxRunKill = sandboxRunMethod('runKill');

/** All `workspace/run*` descriptors by operation. */
export const WORKSPACE_RUN_METHODS = { runStart: WorkspaceRunStart, runList: WorkspaceRunList, runRead: WorkspaceRunRead, runKill: WorkspaceRunKill } as const;
/** All `sandbox/run*` descriptors by operation. */
export const SANDBOX_RUN_METHODS = { runStart: SandboxRunStart, runList: SandboxRunList, runRead: SandboxRunRead, runKill: SandboxRunKill } as const;

// Drift checks: each schema's inferred type and the hand-written interface assign both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<X extends true> = X;
export type _ExecRunDrift = [
  Check<Same<z.infer<typeof ExecRunInfoSchema>, T.ExecRunInfo>>,
  Check<Same<z.infer<typeof ExecRunStartResultSchema>, T.ExecRunStartResult>>,
  Check<Same<z.infer<typeof ExecRunReadOptionsSchema>, T.ExecRunReadOptions>>,
  Check<Same<z.infer<typeof ExecRunReadResultSchema>, T.ExecRunReadResult>>,
  Check<Same<z.infer<typeof ExecRunKillResultSchema>, T.ExecRunKillResult>>,
  Check<Same<z.infer<typeof ExecRunListResultSchema>, T.ExecRunListResult>>,
];
