import { lstatSync } from 'node:fs';
import path from 'node:path';
import { canonicalizeHostPath } from './canonical.js';
import { WorkspaceError, toWorkspaceError } from './errors.js';
import { mapWorkspacePath, resolveHostMapping, type PathMapping } from './path-mappings.js';
import { normalizeProtectedPaths, protectedRelation } from './protected-paths.js';

/** A workspace path that passed every check, with the facts the checks established. */
export interface GuardedPath {
  /** The path exactly as the caller gave it (used in errors). */
  input: string;
  /** Lexical container path of the input. */
  containerPath: string;
  /** Host path with every symlink resolved (the final one kept when `keepFinalSymlink`). */
  hostPath: string;
  /** Container path of `hostPath`, in the namespace of the mount that really holds it. */
  canonicalPath: string;
  /** The mount that really holds the target (after the re-lookup). */
  mapping: PathMapping;
  /** Canonical (pinned) host root of that mount. */
  hostRoot: string;
  /** Names from the mount root down to the target, all canonical ([] for the root itself). */
  segments: string[];
  exists: boolean;
  write: boolean;
  keepFinalSymlink: boolean;
}

export interface AdmitOptions {
  /** The operation mutates the target: refuse read-only mounts. */
  write?: boolean;
  /** Resolve only the parent (unlink/rename act on a symlink itself, not on what it names). */
  keepFinalSymlink?: boolean;
  /** The operation removes or moves the entry: an ancestor of a protected path is protected too. */
  detaches?: boolean;
}

/**
 * The path guard of a host-backed bridge. Every admission: lexical mount lookup →
 * canonicalize on the host (realpath of the deepest existing ancestor + missing
 * suffix) → re-lookup the mount of the canonical path against the PINNED canonical
 * host roots → read-only check → protected-path check (on the canonical path, so an
 * alias of a protected path is caught). `recheck` repeats it right before a mutation so a
 * path swapped in between is caught (TOCTOU).
 */
export class PathGuard {
  readonly #mappings: readonly PathMapping[];
  readonly #cwd: string | undefined;
  #pinned: Promise<{ roots: PathMapping[]; protectedPaths: string[] }> | undefined;

  /** @throws ProtectedPathSyntaxError for a protected path that is not workspace-relative. */
  constructor(mappings: readonly PathMapping[], options: { cwd?: string } = {}) {
    this.#mappings = mappings.map((m, i) =>
      m.protectedPaths === undefined ? m : { ...m, protectedPaths: normalizeProtectedPaths(m.protectedPaths, `mappings[${i}].protectedPaths`) },
    );
    this.#cwd = options.cwd;
  }

  get mappings(): readonly PathMapping[] {
    return this.#mappings;
  }

  /**
   * Host roots canonicalized once; later symlink games on a root itself cannot move the
   * mount. Protected paths become absolute host paths, as written and canonicalized.
   */
  #pins(): Promise<{ roots: PathMapping[]; protectedPaths: string[] }> {
    this.#pinned ??= (async () => {
      const roots = await Promise.all(this.#mappings.map(async (m) => ({ ...m, hostRoot: (await canonicalizeHostPath(m.hostRoot)).canonical })));
      const protectedPaths = new Set<string>();
      for (const root of roots) {
        for (const p of root.protectedPaths ?? []) {
          const written = path.join(root.hostRoot, p);
          protectedPaths.add(written);
          protectedPaths.add(await canonicalizeHostPath(written).then((c) => c.canonical, () => written));
        }
      }
      return { roots, protectedPaths: [...protectedPaths] };
    })();
    return this.#pinned;
  }

  #pinnedRoots(): Promise<PathMapping[]> {
    return this.#pins().then((pins) => pins.roots);
  }

  async admit(input: string, options: AdmitOptions = {}): Promise<GuardedPath> {
    const mapped = mapWorkspacePath(this.#mappings, input, { cwd: this.#cwd });
    const keepFinalSymlink = options.keepFinalSymlink === true;
    let resolved: { canonical: string; exists: boolean };
    try {
      resolved = await this.#canonicalize(mapped.hostPath, keepFinalSymlink);
    } catch (error) {
      throw toWorkspaceError(error, input, 'resolve');
    }
    const pinned = await this.#pinnedRoots();
    const preferred = pinned[this.#mappings.indexOf(mapped.mapping)];
    const found = resolveHostMapping(pinned, resolved.canonical, preferred);
    if (found === null) {
      throw new WorkspaceError('PATH_OUTSIDE_MOUNT', `Path resolves outside its mount (through a symbolic link): ${input}`, { path: input });
    }
    const mapping = this.#mappings[pinned.indexOf(found.mapping)] ?? found.mapping;
    if (keepFinalSymlink && found.relative === '') {
      throw new WorkspaceError('PATH_NOT_ADMITTED', `Refusing to remove or move a mount root: ${input}`, { path: input });
    }
    const write = options.write === true;
    if (write && (mapping.readOnly === true || mapped.mapping.readOnly === true)) {
      throw new WorkspaceError('READ_ONLY_MOUNT', `Path is on a read-only mount (${mapping.containerRoot}); cannot write: ${input}`, { path: input });
    }
    const segments = found.relative === '' ? [] : found.relative.split(path.sep);
    if (write) {
      const relation = protectedRelation((await this.#pins()).protectedPaths, resolved.canonical);
      if (relation === 'inside' || (relation === 'ancestor' && options.detaches === true)) {
        const alias = found.containerPath === mapped.containerPath ? '' : ` (it resolves to ${found.containerPath})`;
        throw new WorkspaceError('PROTECTED_PATH', `Path is protected; tools cannot change it: ${input}${alias}`, { path: input });
      }
    }
    return {
      input,
      containerPath: mapped.containerPath,
      hostPath: resolved.canonical,
      canonicalPath: found.containerPath,
      mapping,
      hostRoot: found.mapping.hostRoot,
      segments,
      exists: resolved.exists,
      write,
      keepFinalSymlink,
    };
  }

  /**
   * Re-run the admission immediately before a mutating (or final) step and make
   * sure it still lands on the same host path; anything swapped since is refused.
   */
  async recheck(guarded: GuardedPath): Promise<void> {
    const again = await this.admit(guarded.input, { write: guarded.write, keepFinalSymlink: guarded.keepFinalSymlink });
    if (again.hostPath !== guarded.hostPath) {
      throw new WorkspaceError('PATH_OUTSIDE_MOUNT', `Path changed while it was being used (was ${guarded.canonicalPath}, now ${again.canonicalPath}): ${guarded.input}`, { path: guarded.input });
    }
  }

  /** True when a host path (e.g. the real path of an opened fd) lies inside a pinned mount. */
  async mountOfHostPath(hostPath: string): Promise<PathMapping | null> {
    const pinned = await this.#pinnedRoots();
    const found = resolveHostMapping(pinned, hostPath);
    return found === null ? null : (this.#mappings[pinned.indexOf(found.mapping)] ?? null);
  }

  /** Container path of a canonical host path, or null when no mount holds it. */
  async containerPathOf(hostPath: string): Promise<string | null> {
    return resolveHostMapping(await this.#pinnedRoots(), hostPath)?.containerPath ?? null;
  }

  async #canonicalize(hostPath: string, keepFinalSymlink: boolean): Promise<{ canonical: string; exists: boolean }> {
    if (!keepFinalSymlink) return canonicalizeHostPath(hostPath);
    const parent = await canonicalizeHostPath(path.dirname(hostPath));
    const canonical = path.join(parent.canonical, path.basename(hostPath));
    // lstat: the final component is the thing itself, even when it is a symlink.
    let exists = true;
    try {
      lstatSync(canonical); // synchronous: a metadata look-up, see canonical.ts
    } catch {
      exists = false;
    }
    return { canonical, exists };
  }
}
