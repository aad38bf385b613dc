import { statSync } from 'node:fs';
import { posix } from 'node:path';
import { foldCase, pathSyntaxProblem } from '../../fs-bridge/index.js';
import { SandboxError, throwIfCancelled } from '../errors.js';
import { runShell } from '../shell/run.js';
import type { SandboxShellBackend, ShellRunResult } from '../shell/types.js';
import { guardFailure } from './failure.js';
import { PRIORITY, findMount, normalizeSandboxPath, translate, type GuardMount } from './mount-table.js';
import { PIN_SCRIPT, SWEEP_SCRIPT } from './scripts.js';

export interface GuardOptions {
  /** Read and write files with more than one hard link (refused with HARD_LINKED by default). */
  allowHardLinks?: boolean;
}

/**
 * The fs-bridge path guard (SPEC §5.6), shared by every shell-backed sandbox. The host
 * side does what needs no I/O in the sandbox: lexical mount lookup and the pinned host
 * root. Everything else (canonical path, mount of the canonical path, read-only mounts,
 * mount roots, protected paths) is decided by the operation's own script in the sandbox,
 * in the same step that uses the path, from the tables this class hands it (`scriptArgs`).
 */
export class SandboxPathGuard {
  /** The first three arguments of every operation script (see guard/scripts.ts PRELUDE). */
  readonly scriptArgs: readonly [string, string, string];

  private constructor(
    readonly workdir: string,
    private readonly mounts: readonly GuardMount[],
    /** Same mounts with `target` replaced by its canonical form in the sandbox. */
    private readonly pinned: readonly GuardMount[],
    private readonly hostPins: ReadonlyMap<GuardMount, { dev: number; ino: number }>,
    /** Protected paths where commands run, as written and canonicalized. */
    protectedTargets: readonly string[],
    options: GuardOptions,
  ) {
    const byDepth = [...pinned].sort((a, b) => b.target.length - a.target.length || PRIORITY[b.source] - PRIORITY[a.source]);
    const table = [...new Set(protectedTargets.map(foldCase))];
    this.scriptArgs = [options.allowHardLinks === true ? 'h' : '-', byDepth.map((m) => `${m.writable ? 'w' : 'r'}|${m.target}`).join('\n'), table.join('\n')];
  }

  /**
   * Pins host roots (device+inode) and canonical mount targets once, when the sandbox
   * opens, and removes temp files a killed write left in the writable mounts.
   */
  static async open(shell: SandboxShellBackend, workdir: string, mounts: readonly GuardMount[], options: GuardOptions = {}): Promise<SandboxPathGuard> {
    const hostPins = new Map<GuardMount, { dev: number; ino: number }>();
    for (const m of mounts) {
      if (/[\n\0]/.test(m.target) || /[\n\0]/.test((m.protectedPaths ?? []).join(''))) {
        throw new SandboxError('CONFIG_INVALID', `Sandbox mount ${JSON.stringify(m.path)} has a target or protected path with a newline or NUL`);
      }
      if (!m.hostRoot) continue;
      try {
        const s = statSync(m.hostRoot);
        hostPins.set(m, { dev: s.dev, ino: s.ino });
      } catch (cause) {
        throw new SandboxError('BACKEND_UNAVAILABLE', `Sandbox mount source ${m.hostRoot} (for ${m.path}) cannot be opened on the host`, { cause });
      }
    }
    const joined = (m: GuardMount) => (m.protectedPaths ?? []).map((p) => (p === '' ? m.target : posix.join(m.target, p)));
    // One round trip canonicalizes the mount targets and the protected paths (a protected symlink protects its target).
    const written = mounts.flatMap(joined);
    const result = await runShell(shell, { script: PIN_SCRIPT, args: [...mounts.map((m) => m.target), ...written] });
    const failure = guardFailure(result, 'open', mounts.map((m) => m.path).join(', '));
    if (failure) throw failure;
    const canonical = result.stdout.toString('utf8').split('\0');
    const pinned = mounts.map((m, i) => ({ ...m, target: canonical[i] || m.target }));
    const protectedTargets = [...pinned.flatMap(joined), ...canonical.slice(mounts.length, mounts.length + written.length)];
    const writable = pinned.filter((m) => m.writable).map((m) => m.target);
    if (writable.length > 0) await runShell(shell, { script: SWEEP_SCRIPT, args: writable });
    return new SandboxPathGuard(workdir, mounts, pinned, hostPins, protectedTargets, options);
  }

  /**
   * The host side of an admission: refuses what no file system can name, looks the mount up
   * lexically and checks its pinned host root; returns the lexical path where commands run,
   * for the operation script to resolve and judge.
   */
  target(input: string, action: string, signal?: AbortSignal): string {
    throwIfCancelled(signal, `${action} ${input}`);
    const problem = pathSyntaxProblem(input);
    if (problem !== null) throw new SandboxError('PATH_NOT_ADMITTED', `Sandbox ${action} refused: ${problem}`, { data: { path: input, action } });
    const lexical = normalizeSandboxPath(input, this.workdir);
    const mount = findMount(this.mounts, lexical, 'path');
    if (!mount) throw new SandboxError('PATH_OUTSIDE_MOUNT', `Sandbox path escapes allowed mounts; cannot ${action}: ${input}`, { data: { path: input, action } });
    const pin = this.hostPins.get(mount);
    if (pin && mount.hostRoot) {
      let now: { dev: number; ino: number } | undefined;
      try { now = statSync(mount.hostRoot); } catch { now = undefined; }
      if (!now || now.dev !== pin.dev || now.ino !== pin.ino) {
        throw new SandboxError('PATH_NOT_ADMITTED', `Sandbox boundary checks failed; cannot ${action}: ${input} (host directory ${mount.hostRoot} behind ${mount.path} was replaced since the sandbox opened)`);
      }
    }
    return translate(mount, lexical, 'path');
  }

  /** The model-facing path of a canonical target an operation script reported. */
  namespacePath(target: string): string {
    const mount = findMount(this.pinned, target, 'target');
    return mount ? translate(mount, target, 'target') : target;
  }

  /** The typed error of a failed operation script, or null when it succeeded. */
  failure(result: ShellRunResult, action: string, input: string): SandboxError | null {
    return guardFailure(result, action, input, { show: (target) => this.namespacePath(target), lexical: normalizeSandboxPath(input, this.workdir) });
  }

  /**
   * A path as commands see it (inside a mount's target: what `pwd` prints over ssh) in the
   * namespace the model sees; a namespace path or anything else is returned unchanged. Only a
   * lexical translation: `resolve` then judges the result like any other path.
   */
  fromTargetPath(input: string): string {
    const p = normalizeSandboxPath(input, this.workdir);
    if (!input.startsWith('/') || findMount(this.mounts, p, 'path')) return input;
    const mount = findMount(this.pinned, p, 'target') ?? findMount(this.mounts, p, 'target');
    return mount ? translate(mount, p, 'target') : input;
  }
}
