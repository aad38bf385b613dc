import * as z from 'zod';
import { defineRequest, type RequestDescriptor } from '../define.js';
import { WORKSPACE_OPERATIONS, type WorkspaceOperation } from './workspace.js';
import { lazySchema } from '../lazy-schema.js';

/** A sandbox backend a plugin contributes. `capabilities` names the operations it serves. @since 1 */
export const SandboxBackendContribution = lazySchema(() => z.object({
  id: z.string().min(1),
  /** Subset of: read, write, stat, readDirectory, mkdir, remove, rename, exec. */
  capabilities: z.array(z.string()),
}));
export type SandboxBackendContribution = z.infer<typeof SandboxBackendContribution>;

/** @since 1 */
export const SandboxPrepareParams = lazySchema(() => z.object({
  /** Session key; later `sandbox/*` calls address the session with it. */
  session: z.string().min(1),
  backendId: z.string().min(1),
  /** Host directory to mount as the workspace, if any. */
  workspaceDir: z.string().optional(),
  readOnly: z.boolean().optional(),
  /**
   * Workspace-relative POSIX paths (e.g. `.git`, `.pincer`, `pincer.config.json`) that no
   * mutating operation may touch, at or below them, judged after canonical resolution
   * (a symlink to a protected path is protected). Refused with PROTECTED_PATH. @since 1
   */
  protectedPaths: z.array(z.string().min(1)).optional(),
  /** Backend-specific creation parameters (validated by the backend). */
  config: z.record(z.string(), z.unknown()).optional(),
  /**
   * Serve this session's read-only operations on a direct channel too: a Unix socket at
   * `socket` (the kernel chose the path; the backend listens there), where a request carries a
   * grant the kernel derived from `secret` (docs/protocol.md, "Direct channel"). A backend that
   * does not say `direct: true` in its result is never addressed there. @since 1
   */
  direct: z.object({ socket: z.string().min(1), secret: z.string().min(32) }).optional(),
}));
export type SandboxPrepareParams = z.infer<typeof SandboxPrepareParams>;

/** @since 1 */
export const SandboxPrepareResult = lazySchema(() => z.object({
  session: z.string(),
  /** Workspace root as the model sees it (e.g. `/workspace`). */
  workdir: z.string(),
  /** An existing sandbox was reused (same config hash). */
  reused: z.boolean().optional(),
  /** The backend serves the session on the direct channel the prepare named. @since 1 */
  direct: z.boolean().optional(),
}));
export type SandboxPrepareResult = z.infer<typeof SandboxPrepareResult>;

/** Creates or reuses the sandbox of a session. @since 1 */
export const SandboxPrepare = defineRequest('sandbox/prepare', SandboxPrepareParams, SandboxPrepareResult, {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Creates (or reuses) the sandbox for a session; later sandbox/* operations name the session.',
});

/** Releases a session's sandbox. @since 1 */
export const SandboxRelease = defineRequest('sandbox/release', lazySchema(() => z.object({ session: z.string() })), lazySchema(() => z.null()), {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Releases the sandbox of a session (the backend may keep it warm for reuse).',
});

type Op<K extends WorkspaceOperation> = (typeof WORKSPACE_OPERATIONS)[K];
type SandboxDescriptor<K extends WorkspaceOperation> = RequestDescriptor<
  z.ZodType<z.output<Op<K>['params']> & { session: string }, z.input<Op<K>['params']> & { session: string }>,
  Op<K>['result']
>;

function sandboxMethod<K extends WorkspaceOperation>(op: K): SandboxDescriptor<K> {
  const { params, result } = WORKSPACE_OPERATIONS[op];
  return defineRequest(`sandbox/${op}`, lazySchema(() => params.extend({ session: z.string().min(1) })), result, {
    direction: 'kernel-to-plugin',
    since: 1,
    doc: `WorkspaceService.${op} served by a backend for one prepared session. Errors: WorkspaceError with data.code.`,
    capability: op,
  }) as unknown as SandboxDescriptor<K>;
}

/** Kernel → backend plugin workspace operations, addressed to a session. @since 1 */
export const SandboxRead = sandboxMethod('read');
export const SandboxWrite = sandboxMethod('write');
export const SandboxStat = sandboxMethod('stat');
export const SandboxReadDirectory = sandboxMethod('readDirectory');
export const SandboxMkdir = sandboxMethod('mkdir');
export const SandboxRemove = sandboxMethod('remove');
export const SandboxRename = sandboxMethod('rename');
export const SandboxExec = sandboxMethod('exec');

/** All `sandbox/<op>` descriptors by operation. */
export const SANDBOX_METHODS = {
  read: SandboxRead,
  write: SandboxWrite,
  stat: SandboxStat,
  readDirectory: SandboxReadDirectory,
  mkdir: SandboxMkdir,
  remove: SandboxRemove,
  rename: SandboxRename,
  exec: SandboxExec,
} as const;
