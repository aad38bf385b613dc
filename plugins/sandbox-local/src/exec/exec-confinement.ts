import * as z from 'zod';

/**
 * How the local backend runs `exec` (the `sandbox-local` entry's `settings.exec`).
 * `workspace-write`: under bubblewrap, the workspace read-write, its protected paths read-only,
 * the rest of the host read-only (or hidden), a private /tmp, its own PID namespace, no network.
 * `danger-full-access`: as the kernel's user on the whole host, protected paths NOT enforced.
 * Unset: `workspace-write` where bubblewrap works, else `danger-full-access` with a warning.
 */
export const ExecModeSettings = z.strictObject({
  mode: z.enum(['workspace-write', 'danger-full-access']).optional(),
  /** Give `workspace-write` commands the host's network (off by default). */
  network: z.boolean().default(false),
  /** `read-only`: the host's files are visible read-only; `hidden`: only the system directories are. */
  hostFilesystem: z.enum(['read-only', 'hidden']).default('read-only'),
});
export type ExecModeSettings = z.output<typeof ExecModeSettings>;

/** What one prepared session's commands run under. */
export type ExecConfinement =
  | { mode: 'danger-full-access' }
  | {
      mode: 'workspace-write';
      /** Fail (SECURITY_VIOLATION) rather than fall back when bubblewrap cannot run: the operator chose this mode. */
      required: boolean;
      network: boolean;
      hostFilesystem: 'read-only' | 'hidden';
      /** Host directory served read-write. */
      workspaceDir: string;
      /** Workspace-relative protected paths (read-only; a missing one cannot be created). */
      protectedPaths: readonly string[];
      /** Host directories served read-only (the backend's `readOnlyMounts`). */
      readOnlyDirs: readonly string[];
      /** The workspace itself is read-only (workspaceAccess `ro`). */
      readOnly: boolean;
    };
