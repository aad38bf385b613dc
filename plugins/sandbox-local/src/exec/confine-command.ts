import { WorkspaceError } from '../../../../sdk/fs-bridge/index.js';
import { bwrapCommandArgs, bwrapUnavailable } from './bwrap-command.js';
import type { ExecConfinement } from './exec-confinement.js';
import { holdProtectedPaths } from '../../../../sdk/protected-paths/placeholders.js';

export interface CommandSandbox {
  /** bubblewrap's arguments, or undefined to run on the host. */
  args?: string[];
  release(): void;
}

let warned = false;

/**
 * The sandbox one command runs in. Where bubblewrap cannot run, a mode the operator chose
 * fails the command (SECURITY_VIOLATION); the unset default falls back to the host, said once.
 */
export async function commandSandbox(confinement: ExecConfinement | undefined, cwd: string): Promise<CommandSandbox> {
  if (confinement === undefined || confinement.mode === 'danger-full-access') return { release: () => undefined };
  const missing = await bwrapUnavailable();
  if (missing !== undefined) {
    if (confinement.required) {
      throw new WorkspaceError('SECURITY_VIOLATION', `The command was not run: exec.mode is "workspace-write" but ${missing}`);
    }
    if (!warned) {
      warned = true;
      process.stderr.write(`sandbox-local: ${missing}; commands run with danger-full-access (the whole host, protected paths not enforced). Install bubblewrap, or set exec.mode explicitly.\n`);
    }
    return { release: () => undefined };
  }
  const held = confinement.readOnly ? { readOnly: [], ancestors: [], release: () => undefined } : holdProtectedPaths(confinement.workspaceDir, confinement.protectedPaths);
  return { args: bwrapCommandArgs(confinement, held, cwd), release: held.release };
}
