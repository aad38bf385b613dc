import { WorkspaceError } from '../plugin/errors.js';

/** The workspace root as paths name it, like the bundled backends' `/workspace`. */
export const MEMORY_ROOT = '/workspace';

export interface MemoryFile {
  kind: 'file';
  data: Buffer;
  mode: number;
  /** Identity: a replaced file gets a new one, as an atomic rename gives a new inode. */
  ino: number;
  /** Bumped on every in-place change, like ctime. */
  changes: number;
}
export type MemoryNode = MemoryFile | { kind: 'dir'; mode: number } | { kind: 'link'; target: string };

/**
 * Nodes keyed by their path relative to the root (`''` is the root directory), with the
 * symlink resolution a backend does: `..` and links are followed component by component,
 * and anything that leaves the root is refused.
 */
export class MemoryTree {
  readonly nodes = new Map<string, MemoryNode>([['', { kind: 'dir', mode: 0o755 }]]);
  #nextIno = 1;

  newIno(): number {
    return this.#nextIno++;
  }

  /** Canonical key of `input`; `followFinal: false` names a final symlink itself (remove, rename). */
  resolve(input: string, followFinal = true): string {
    let pending = this.#components(input);
    const done: string[] = [];
    for (let hops = 0; pending.length > 0; ) {
      const name = pending.shift() as string;
      if (name === '..') {
        if (done.length === 0) throw new WorkspaceError('PATH_OUTSIDE_MOUNT', `${input} leaves the workspace`, { path: input });
        done.pop();
        continue;
      }
      const node = this.nodes.get([...done, name].join('/'));
      if (node?.kind === 'link' && (pending.length > 0 || followFinal)) {
        if (++hops > 40) throw new WorkspaceError('IO_ERROR', `too many symbolic links in ${input}`, { path: input });
        if (node.target.startsWith('/')) done.length = 0;
        pending = [...this.#components(node.target, input), ...pending];
        continue;
      }
      done.push(name);
    }
    return done.join('/');
  }

  #components(input: string, reportAs = input): string[] {
    let rest = input;
    if (input.startsWith('/')) {
      if (input !== MEMORY_ROOT && !input.startsWith(`${MEMORY_ROOT}/`)) {
        throw new WorkspaceError(reportAs === input ? 'PATH_NOT_ADMITTED' : 'PATH_OUTSIDE_MOUNT', `${reportAs} is outside the workspace`, { path: reportAs });
      }
      rest = input.slice(MEMORY_ROOT.length);
    }
    return rest.split('/').filter((c) => c !== '' && c !== '.');
  }

  get(key: string): MemoryNode | undefined {
    return this.nodes.get(key);
  }

  file(key: string, input: string): MemoryFile {
    const node = this.nodes.get(key);
    if (node === undefined) throw new WorkspaceError('NOT_FOUND', `no such file: ${input}`, { path: input });
    if (node.kind !== 'file') throw new WorkspaceError('NOT_A_FILE', `${input} is not a regular file`, { path: input });
    return node;
  }

  /** Keys naming the same file object: hard links. */
  linkCount(file: MemoryFile): number {
    let count = 0;
    for (const node of this.nodes.values()) if (node === file) count += 1;
    return count;
  }

  children(key: string): string[] {
    const prefix = key === '' ? '' : `${key}/`;
    return [...this.nodes.keys()].filter((k) => k !== key && k.startsWith(prefix) && !k.slice(prefix.length).includes('/'));
  }

  /** Create the missing parents of `key` (or fail with NOT_FOUND when `create` is false). */
  parents(key: string, input: string, create: boolean): void {
    const parts = key.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i += 1) {
      const dir = parts.slice(0, i).join('/');
      const node = this.nodes.get(dir);
      if (node?.kind === 'dir') continue;
      if (node !== undefined) throw new WorkspaceError('NOT_A_DIRECTORY', `a parent of ${input} is not a directory`, { path: input });
      if (!create) throw new WorkspaceError('NOT_FOUND', `the directory of ${input} does not exist`, { path: input });
      this.nodes.set(dir, { kind: 'dir', mode: 0o755 });
    }
  }

  version(file: MemoryFile): string {
    return `${file.ino}:${file.data.length}:${file.changes}`;
  }
}
