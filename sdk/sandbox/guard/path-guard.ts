import { statSync } from 'node:fs';
import { SandboxError, throwIfCancelled } from '../errors.js';
import { runShell } from '../shell/run.js';
import type { SandboxShellBackend } from '../shell/types.js';
import { guardFailure } from './failure.js';
import { findMount, normalizeSandboxPath, translate, type GuardMount } from './mount-table.js';
import { CANON_SCRIPT, PRELUDE } from './scripts.js';

export interface GuardCheck {
  /** Verb for messages: `read`, `write`, `remove`… */
  action: string;
  /** The operation mutates the target: a read-only mount refuses it. */
  write: boolean;
  /** Keep a final symlink literal (remove/rename act on the link, not its target). */
  keepFinalSymlink?: boolean;
  signal?: AbortSignal;
}

/** A path that passed every check; the op script re-verifies `target` as it runs. */
export interface GuardedPath {
  input: string;
  /** Canonical path in the namespace the model sees. */
  path: string;
  /** Canonical path where commands run. */
  target: string;
  mount: GuardMount;
  /** The input itself was a symlink. */
  isSymbolicLink: boolean;
}

const PIN_SCRIPT = `${PRELUDE}for m in "$@"; do canon "$m" 0; printf '%s\\0' "$C"; done`;

/**
 * The fs-bridge path guard (SPEC §5.6), shared by every shell-backed sandbox:
 * lexical lookup → pinned host root → canonical path computed inside the sandbox →
 * lookup again → read-only check. Mutating scripts then re-walk the canonical path
 * themselves, immediately before they act.
 */
export class SandboxPathGuard {
  private constructor(
    private readonly shell: SandboxShellBackend,
    readonly workdir: string,
    private readonly mounts: readonly GuardMount[],
    /** Same mounts with `target` replaced by its canonical form in the sandbox. */
    private readonly pinned: readonly GuardMount[],
    private readonly hostPins: ReadonlyMap<GuardMount, { dev: number; ino: number }>,
  ) {}

  /** Pins host roots (device+inode) and canonical mount targets once, when the sandbox opens. */
  static async open(shell: SandboxShellBackend, workdir: string, mounts: readonly GuardMount[]): Promise<SandboxPathGuard> {
    const hostPins = new Map<GuardMount, { dev: number; ino: number }>();
    for (const m of mounts) {
      if (!m.hostRoot) continue;
      try {
        const s = statSync(m.hostRoot);
        hostPins.set(m, { dev: s.dev, ino: s.ino });
      } catch (cause) {
        throw new SandboxError('BACKEND_UNAVAILABLE', `Sandbox mount source ${m.hostRoot} (for ${m.path}) cannot be opened on the host`, { cause });
      }
    }
    const result = await runShell(shell, { script: PIN_SCRIPT, args: mounts.map((m) => m.target) });
    const failure = guardFailure(result, 'open', mounts.map((m) => m.path).join(', '));
    if (failure) throw failure;
    const canonical = result.stdout.toString('utf8').split('\0');
    const pinned = mounts.map((m, i) => ({ ...m, target: canonical[i] || m.target }));
    return new SandboxPathGuard(shell, workdir, mounts, pinned, hostPins);
  }

  private escape(action: string, input: string): SandboxError {
    return new SandboxError('PATH_OUTSIDE_MOUNT', `Sandbox path escapes allowed mounts; cannot ${action}: ${input}`, { data: { path: input, action } });
  }

  async resolve(input: string, check: GuardCheck): Promise<GuardedPath> {
    throwIfCancelled(check.signal, `${check.action} ${input}`);
    const lexical = normalizeSandboxPath(input, this.workdir);
    const mount = findMount(this.mounts, lexical, 'path');
    if (!mount) throw this.escape(check.action, input);
    const pin = this.hostPins.get(mount);
    if (pin && mount.hostRoot) {
      let now: { dev: number; ino: number } | undefined;
      try { now = statSync(mount.hostRoot); } catch { now = undefined; }
      if (!now || now.dev !== pin.dev || now.ino !== pin.ino) {
        throw new SandboxError('PATH_NOT_ADMITTED', `Sandbox boundary checks failed; cannot ${check.action}: ${input} (host directory ${mount.hostRoot} behind ${mount.path} was replaced since the sandbox opened)`);
      }
    }
    const result = await runShell(this.shell, { script: CANON_SCRIPT, args: [translate(mount, lexical, 'path'), check.keepFinalSymlink ? '1' : '0'], signal: check.signal });
    const failure = guardFailure(result, check.action, input);
    if (failure) throw failure;
    const out = result.stdout.toString('utf8');
    const bar = out.indexOf('|');
    const target = out.slice(bar + 1);
    if (bar !== 1 || !target.startsWith('/')) {
      throw new SandboxError('IO_ERROR', `Failed to resolve canonical sandbox path: ${input}`);
    }
    const canonicalMount = findMount(this.pinned, target, 'target');
    if (!canonicalMount) throw this.escape(check.action, `${input} (resolves to ${target})`);
    if (check.write && !canonicalMount.writable) {
      throw new SandboxError('READ_ONLY_MOUNT', `Sandbox path is read-only; cannot ${check.action}: ${input} (mount ${canonicalMount.path} is read-only)`, { data: { path: input, mount: canonicalMount.path } });
    }
    return { input, path: translate(canonicalMount, target, 'target'), target, mount: canonicalMount, isSymbolicLink: out[0] === '1' };
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

  /** The canonical target of a mount root, for refusing operations on the root itself. */
  isMountRoot(guarded: GuardedPath): boolean {
    return this.pinned.some((m) => m.target === guarded.target);
  }
}
