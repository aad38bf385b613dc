import * as z from 'zod';
import { defineProgress, defineRequest, type RequestDescriptor } from '../define.js';
import type * as T from './workspace-types.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * Schemas of the workspace service (`workspace-types.ts`), and its methods in both directions:
 * `workspace/*` (tool plugin → kernel) and, in `sandbox.ts`, `sandbox/*` (kernel → backend plugin).
 * Compile-time checks at the bottom keep the schemas and the interface from drifting.
 */

/** @since 1 */
export const WorkspaceStatSchema = lazySchema(() => z.object({
  path: z.string(),
  isFile: z.boolean(),
  isDirectory: z.boolean(),
  isSymbolicLink: z.boolean(),
  size: z.number(),
  mtimeMs: z.number(),
  mode: z.number().int().optional(),
  nlink: z.number().int().optional(),
  version: z.string().optional(),
}));
/** @since 1 */
export const WorkspaceDirEntrySchema = lazySchema(() => z.object({
  name: z.string(),
  isFile: z.boolean().optional(),
  isDirectory: z.boolean().optional(),
  size: z.number().optional(),
  mtimeMs: z.number().optional(),
}));
const Encoding = lazySchema(() => z.enum(['utf8', 'base64']));
/** @since 1 */
export const WorkspaceReadOptionsSchema = lazySchema(() => z.object({
  maxBytes: z.number().int().nonnegative().optional(),
  encoding: Encoding.optional(),
  expectedPolicyPath: z.string().optional(),
}));
/** @since 1 */
export const WorkspaceReadResultSchema = lazySchema(() => z.object({ path: z.string(), content: z.string(), encoding: Encoding, size: z.number(), version: z.string().optional() }));
/** @since 1 */
export const WorkspaceWriteOptionsSchema = lazySchema(() => z.object({
  encoding: Encoding.optional(),
  mkdirs: z.boolean().optional(),
  append: z.boolean().optional(),
  expectVersion: z.string().optional(),
  createOnly: z.boolean().optional(),
  mode: z.number().int().min(0).max(0o7777).optional(),
}));
/** @since 1 */
export const WorkspaceExecOptionsSchema = lazySchema(() => z.object({
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxOutputBytes: z.number().int().positive().optional(),
  stdin: z.string().optional(),
}));
/** @since 1 */
export const ExecOutputSegmentSchema = lazySchema(() => z.discriminatedUnion('stream', [
  z.object({ stream: z.enum(['stdout', 'stderr']), text: z.string() }),
  z.object({ stream: z.literal('omitted'), bytes: z.number().int().nonnegative() }),
]));
/** @since 1 */
export const WorkspaceExecResultSchema = lazySchema(() => z.object({
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  timedOut: z.boolean(),
  truncated: z.boolean(),
  durationMs: z.number(),
  output: z.array(ExecOutputSegmentSchema).optional(),
  strayProcessesKilled: z.boolean().optional(),
  cwd: z.string().optional(),
}));
const Recursive = lazySchema(() => z.object({ recursive: z.boolean().optional() }));

/**
 * Output a running command printed since its previous report, in arrival order. A sender that
 * skipped some to keep its reports small marks the place with an `omitted` segment; the final
 * result is never affected (it keeps what its own cap keeps).
 * @since 1
 */
export const ExecProgressValue = lazySchema(() => z.object({ output: z.array(ExecOutputSegmentSchema) }));
export type ExecProgressValue = z.infer<typeof ExecProgressValue>;

/** `$/progress {token, value}` for a `workspace/exec` or `sandbox/exec` that carried `progressToken`. @since 1 */
export const ExecProgress = defineProgress('exec', ExecProgressValue, {
  direction: 'both',
  since: 1,
  doc: 'Output so far of a running command: a backend reports it for sandbox/exec, the kernel relays it for workspace/exec under the plugin\'s token. Backends send at most a few reports a second, each only new output (a tail of a few KiB).',
});

/** Each workspace operation: params (without addressing) and result. Source of both method families. */
export const WORKSPACE_OPERATIONS = {
  read: { params: lazySchema(() => z.object({ path: z.string(), options: WorkspaceReadOptionsSchema.optional() })), result: WorkspaceReadResultSchema },
  write: {
    params: lazySchema(() => z.object({ path: z.string(), content: z.string(), options: WorkspaceWriteOptionsSchema.optional() })),
    result: lazySchema(() => z.object({ path: z.string(), bytes: z.number() })),
  },
  stat: { params: lazySchema(() => z.object({ path: z.string() })), result: WorkspaceStatSchema },
  readDirectory: { params: lazySchema(() => z.object({ path: z.string() })), result: lazySchema(() => z.array(WorkspaceDirEntrySchema)) },
  mkdir: { params: lazySchema(() => z.object({ path: z.string(), options: Recursive.optional() })), result: lazySchema(() => z.null()) },
  remove: { params: lazySchema(() => z.object({ path: z.string(), options: Recursive.optional() })), result: lazySchema(() => z.null()) },
  rename: { params: lazySchema(() => z.object({ from: z.string(), to: z.string() })), result: lazySchema(() => z.null()) },
  exec: {
    params: lazySchema(() => z.object({
      command: z.string(),
      options: WorkspaceExecOptionsSchema.optional(),
      /** @since 1 */
      progressToken: z
        .union([z.string(), z.number()])
        .optional()
        .describe('When present, the answerer may report the command\'s output so far as $/progress (exec) under this token.'),
    })),
    result: WorkspaceExecResultSchema,
  },
} as const;
export type WorkspaceOperation = keyof typeof WORKSPACE_OPERATIONS;
export const WORKSPACE_OPERATION_NAMES = Object.keys(WORKSPACE_OPERATIONS) as WorkspaceOperation[];

type Op<K extends WorkspaceOperation> = (typeof WORKSPACE_OPERATIONS)[K];
type WorkspaceDescriptor<K extends WorkspaceOperation> = RequestDescriptor<
  z.ZodType<z.output<Op<K>['params']> & { sessionKey?: string }, z.input<Op<K>['params']> & { sessionKey?: string }>,
  Op<K>['result']
>;

function workspaceMethod<K extends WorkspaceOperation>(op: K): WorkspaceDescriptor<K> {
  const { params, result } = WORKSPACE_OPERATIONS[op];
  const withSession = lazySchema(() => params.extend({ sessionKey: z.string().optional().describe('Session whose workspace is addressed; the kernel fills it from the calling tool/invoke context when omitted.') }));
  return defineRequest(`workspace/${op}`, withSession, result, {
    direction: 'plugin-to-kernel',
    since: 1,
    doc: `WorkspaceService.${op}: the kernel routes it to the session's sandbox backend. Errors: WorkspaceError with data.code.`,
    capability: `workspace.${op}`,
  }) as unknown as WorkspaceDescriptor<K>;
}

/** Tool plugin → kernel workspace methods. @since 1 */
export const WorkspaceRead = workspaceMethod('read');
export const WorkspaceWrite = workspaceMethod('write');
export const WorkspaceStat = workspaceMethod('stat');
export const WorkspaceReadDirectory = workspaceMethod('readDirectory');
export const WorkspaceMkdir = workspaceMethod('mkdir');
export const WorkspaceRemove = workspaceMethod('remove');
export const WorkspaceRename = workspaceMethod('rename');
export const WorkspaceExec = workspaceMethod('exec');

/** All `workspace/*` descriptors by operation. */
export const WORKSPACE_METHODS = {
  read: WorkspaceRead,
  write: WorkspaceWrite,
  stat: WorkspaceStat,
  readDirectory: WorkspaceReadDirectory,
  mkdir: WorkspaceMkdir,
  remove: WorkspaceRemove,
  rename: WorkspaceRename,
  exec: WorkspaceExec,
} as const;

// Drift checks: each schema's inferred type and the hand-written interface assign both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;
export type _WorkspaceDrift = [
  Check<Same<z.infer<typeof WorkspaceStatSchema>, T.WorkspaceStat>>,
  Check<Same<z.infer<typeof WorkspaceDirEntrySchema>, T.WorkspaceDirEntry>>,
  Check<Same<z.infer<typeof WorkspaceReadOptionsSchema>, T.WorkspaceReadOptions>>,
  Check<Same<z.infer<typeof WorkspaceReadResultSchema>, T.WorkspaceReadResult>>,
  Check<Same<z.infer<typeof WorkspaceWriteOptionsSchema>, T.WorkspaceWriteOptions>>,
  Check<Same<z.infer<typeof WorkspaceExecOptionsSchema>, T.WorkspaceExecOptions>>,
  Check<Same<z.infer<typeof WorkspaceExecResultSchema>, T.WorkspaceExecResult>>,
  Check<Same<z.infer<typeof ExecOutputSegmentSchema>, T.ExecOutputSegment>>,
];
