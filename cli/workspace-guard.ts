/**
 * The workspace a run's tools work in: the agent's configured one, else the directory `pincer`
 * runs in. Started from `/` or the home directory (or a folder holding it) by accident, that
 * hands every tool the whole machine or every dotfile, so those are refused unless `--workspace`
 * names them.
 */
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import type { CliContext } from './context.js';
import { CliError, usageError } from './errors.js';

/** `--workspace DIR`, resolved against the caller's directory; it must be an existing directory. */
export function resolveWorkspaceFlag(ctx: CliContext, flag: string, command?: string): string {
  if (flag.trim() === '') throw usageError('--workspace needs a directory, got an empty string', command);
  const dir = resolve(ctx.cwd, flag);
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    // reported below: missing and unreadable read the same to the operator
  }
  if (!isDirectory) throw usageError(`--workspace ${flag}: ${dir} is not an existing directory`, command);
  return canonical(dir);
}

/**
 * Refuses a run whose workspace is `/`, the home directory or a folder holding it, unless
 * `--workspace` named exactly that directory, and a `--workspace` the config overrides (a flag
 * must never be ignored silently).
 */
export function checkWorkspace(workspace: string | undefined, explicit: string | undefined, env: NodeJS.ProcessEnv): void {
  if (workspace === undefined) return;
  const actual = canonical(workspace);
  if (explicit !== undefined) {
    if (actual === explicit) return;
    throw new CliError('USAGE', `--workspace ${explicit} does not apply: this agent's workspace is ${workspace}, set in the config`, {
      hint: "Drop --workspace, or change the agent's workspace in the config.",
      data: { workspace, requested: explicit },
    });
  }
  const what = unsafeWorkspace(actual, canonical(env.HOME || homedir()));
  if (what === undefined) return;
  throw new CliError('UNSAFE_WORKSPACE', `refusing ${what} as the workspace: every tool of this run could read and change all of it`, {
    hint: `Run pincer from a project folder, set the agent's workspace in the config, or pass --workspace ${actual} if you mean it.`,
    data: { workspace: actual },
  });
}

/** `/`, the home directory, or a folder that contains it (`/home` holds every user's files). */
function unsafeWorkspace(dir: string, home: string): string | undefined {
  if (dir === '/') return 'the root directory /';
  if (dir === home) return `the home directory ${dir}`;
  const rel = relative(dir, home);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? `${dir}, which contains the home directory ${home},` : undefined;
}

function canonical(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}
