import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { ProtectedPathSyntaxError, WorkspaceError, normalizeProtectedPaths } from '../../../sdk/fs-bridge/index.js';
import { ExecModeSettings, type ExecConfinement } from './exec/exec-confinement.js';
import type { LocalWorkspaceOptions } from './local-workspace.js';

/** `sandbox/prepare` config the local backend accepts (all optional). */
export const LocalBackendConfig = z
  .object({
    /** Extra host directories, always mounted read-only. */
    readOnlyMounts: z.array(z.object({ hostRoot: z.string().min(1), containerRoot: z.string().startsWith('/') })).default([]),
    env: z.record(z.string(), z.string()).default({}),
    maxReadBytes: z.number().int().positive().optional(),
    defaultTimeoutMs: z.number().int().positive().optional(),
    defaultMaxOutputBytes: z.number().int().positive().optional(),
    // The kernel's layer every backend receives (kernel/assembly/run-shape.ts backendLayerOf):
    // the local backend places nothing by agent, session or docker settings (the placement's
    // workspace and readOnly already say it all), but must not refuse a sandboxed session for them.
    agentId: z.string().optional(),
    sessionKey: z.string().optional(),
    sandbox: z.unknown().optional(),
  })
  .strict();
export type LocalBackendConfig = z.output<typeof LocalBackendConfig>;

/** The `sandbox-local` plugin entry's `settings` (the operator's, all optional). */
export const LocalBackendSettings = z
  .object({
    /** Read and write files with more than one hard link (refused with HARD_LINKED by default). */
    allowHardLinks: z.boolean().optional(),
    /** How `exec` is confined (docs/confinement.md). */
    exec: ExecModeSettings.optional(),
  })
  .strict();

/** A host directory that a mapping may use: absolute and an existing directory. */
async function assertHostDirectory(dir: string, what: string): Promise<string> {
  if (!path.isAbsolute(dir)) throw new WorkspaceError('PATH_NOT_ADMITTED', `${what} must be an absolute host path: ${dir}`, { path: dir });
  const stat = await fs.stat(dir).catch((cause: unknown) => {
    throw new WorkspaceError('NOT_FOUND', `${what} does not exist: ${dir}`, { path: dir, cause });
  });
  if (!stat.isDirectory()) throw new WorkspaceError('NOT_A_DIRECTORY', `${what} is not a directory: ${dir}`, { path: dir });
  return dir;
}

/** Turn prepare params into LocalWorkspace options; the workspace defaults to the plugin's cwd (the embedded default). */
export async function resolveLocalOptions(input: {
  workspaceDir?: string;
  readOnly?: boolean;
  protectedPaths?: readonly string[];
  config?: Record<string, unknown>;
  settings?: Record<string, unknown>;
}): Promise<LocalWorkspaceOptions> {
  const config = LocalBackendConfig.parse(input.config ?? {});
  const settings = LocalBackendSettings.parse(input.settings ?? {});
  let protectedPaths: string[];
  try {
    protectedPaths = normalizeProtectedPaths(input.protectedPaths ?? []);
  } catch (error) {
    if (error instanceof ProtectedPathSyntaxError) throw new WorkspaceError('PATH_NOT_ADMITTED', error.message, { cause: error });
    throw error;
  }
  const workspaceDir = await assertHostDirectory(input.workspaceDir ?? process.cwd(), 'workspaceDir');
  const readOnlyMounts = await Promise.all(
    config.readOnlyMounts.map(async (m) => ({ hostRoot: await assertHostDirectory(m.hostRoot, `mount ${m.containerRoot}`), containerRoot: m.containerRoot })),
  );
  const exec = ExecModeSettings.parse(settings.exec ?? {});
  const confinement: ExecConfinement =
    exec.mode === 'danger-full-access'
      ? { mode: 'danger-full-access' }
      : {
          mode: 'workspace-write',
          required: exec.mode === 'workspace-write',
          network: exec.network,
          hostFilesystem: exec.hostFilesystem,
          workspaceDir,
          protectedPaths,
          readOnlyDirs: readOnlyMounts.map((m) => m.hostRoot),
          readOnly: input.readOnly === true,
        };
  return {
    workspaceDir,
    confinement,
    readOnly: input.readOnly === true,
    readOnlyMounts,
    protectedPaths,
    allowHardLinks: settings.allowHardLinks === true,
    env: config.env,
    ...(config.maxReadBytes !== undefined ? { maxReadBytes: config.maxReadBytes } : {}),
    ...(config.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: config.defaultTimeoutMs } : {}),
    ...(config.defaultMaxOutputBytes !== undefined ? { defaultMaxOutputBytes: config.defaultMaxOutputBytes } : {}),
  };
}
