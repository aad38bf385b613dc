import type { WorkspaceDirEntry, WorkspaceService } from '../../protocol/index.js';
import { WorkspaceError } from '../plugin/errors.js';
import { MEMORY_ROOT, MemoryTree, type MemoryFile } from './memory-tree.js';

/** What a memory workspace offers a test beside the service itself. @since 1 */
export interface MemoryWorkspace extends WorkspaceService {
  /** The bytes of a file (following symlinks), or undefined when there is none. */
  bytes(path: string): Buffer | undefined;
  /** Permission bits of a file or directory. */
  mode(path: string): number | undefined;
  chmod(path: string, mode: number): void;
  symlink(target: string, path: string): void;
  /** A second name for an existing file (its link count becomes 2). */
  hardlink(existing: string, path: string): void;
  /** Every entry, sorted: directories end with `/`, symlinks with `@`. */
  list(): string[];
}

export interface MemoryWorkspaceOptions {
  /** Workspace-relative paths no mutating operation may touch (PROTECTED_PATH), as `sandbox/prepare` passes them. */
  protectedPaths?: string[];
}

const noExec: WorkspaceService['exec'] = async (command) => ({ exitCode: 127, signal: null, stdout: '', stderr: `no exec in memory workspace: ${command}`, timedOut: false, truncated: false, durationMs: 0 });

/**
 * An in-memory WorkspaceService with the whole contract of a backend: raw bytes, modes,
 * content versions (`expectVersion`, `createOnly`), symlinks resolved the way a backend
 * resolves them, hard links refused, protected paths, and strict base64. Paths are POSIX,
 * relative to the workspace or absolute under `/workspace`; `exec` runs a function you pass.
 * @since 1
 */
export function createMemoryWorkspace(files: Record<string, string | Uint8Array> = {}, exec: WorkspaceService['exec'] = noExec, options: MemoryWorkspaceOptions = {}): MemoryWorkspace {
  const tree = new MemoryTree();
  const protectedKeys = (options.protectedPaths ?? []).map((p) => tree.resolve(p, false));
  const guard = (key: string, input: string): void => {
    if (protectedKeys.some((p) => key === p || key.startsWith(`${p}/`) || p === '')) throw new WorkspaceError('PROTECTED_PATH', `${input} is protected`, { path: input });
  };
  const shown = (key: string): string => (key === '' ? MEMORY_ROOT : `${MEMORY_ROOT}/${key}`);
  const single = (file: MemoryFile, input: string): MemoryFile => {
    if (tree.linkCount(file) > 1) throw new WorkspaceError('HARD_LINKED', `${input} has more than one hard link`, { path: input });
    return file;
  };
  const put = (key: string, data: Buffer, mode: number): void => void tree.nodes.set(key, { kind: 'file', data, mode, ino: tree.newIno(), changes: 0 });
  for (const [name, content] of Object.entries(files)) {
    const key = tree.resolve(name);
    tree.parents(key, name, true);
    put(key, Buffer.from(content), 0o644);
  }

  const workspace: MemoryWorkspace = {
    async read(p, opts) {
      const key = tree.resolve(p);
      const file = single(tree.file(key, p), p);
      if (opts?.maxBytes !== undefined && file.data.length > opts.maxBytes) throw new WorkspaceError('FILE_TOO_LARGE', `${p} is larger than ${opts.maxBytes} bytes`, { path: p });
      const encoding = opts?.encoding ?? 'utf8';
      return { path: shown(key), content: file.data.toString(encoding), encoding, size: file.data.length, version: tree.version(file) };
    },
    async write(p, content, opts = {}) {
      const key = tree.resolve(p);
      guard(key, p);
      tree.parents(key, p, opts.mkdirs === true);
      const existing = tree.get(key);
      if (existing?.kind === 'dir') throw new WorkspaceError('NOT_A_FILE', `${p} is a directory`, { path: p });
      if (opts.createOnly === true && (existing !== undefined || tree.get(tree.resolve(p, false)) !== undefined)) throw new WorkspaceError('CONFLICT', `${p} already exists`, { path: p });
      const current = existing?.kind === 'file' ? single(existing, p) : undefined;
      if (opts.expectVersion !== undefined && (current === undefined || tree.version(current) !== opts.expectVersion)) {
        throw new WorkspaceError('CONFLICT', `${p} changed since version ${opts.expectVersion}`, { path: p });
      }
      const data = Buffer.from(content, opts.encoding ?? 'utf8');
      if (opts.encoding === 'base64' && data.toString('base64') !== content) throw new WorkspaceError('IO_ERROR', `the content for ${p} is not canonical base64`, { path: p });
      const next = opts.append === true && current !== undefined ? Buffer.concat([current.data, data]) : data;
      // An existing file keeps its mode; `mode` applies only to a file this write creates.
      put(key, next, current?.mode ?? opts.mode ?? 0o644);
      return { path: shown(key), bytes: next.length };
    },
    async stat(p) {
      const key = tree.resolve(p);
      const node = tree.get(key);
      if (node === undefined) throw new WorkspaceError('NOT_FOUND', `no such file or directory: ${p}`, { path: p });
      const isSymbolicLink = tree.get(tree.resolve(p, false))?.kind === 'link';
      if (node.kind === 'dir') return { path: shown(key), isFile: false, isDirectory: true, isSymbolicLink, size: 0, mtimeMs: 0, mode: node.mode, nlink: 1 };
      const file = node as MemoryFile;
      return { path: shown(key), isFile: true, isDirectory: false, isSymbolicLink, size: file.data.length, mtimeMs: 0, mode: file.mode, nlink: tree.linkCount(file), version: tree.version(file) };
    },
    async readDirectory(p) {
      const key = tree.resolve(p);
      const node = tree.get(key);
      if (node === undefined) throw new WorkspaceError('NOT_FOUND', `no such directory: ${p}`, { path: p });
      if (node.kind !== 'dir') throw new WorkspaceError('NOT_A_DIRECTORY', `${p} is not a directory`, { path: p });
      return tree.children(key).map((child): WorkspaceDirEntry => {
        const entry = tree.get(child);
        const name = child.slice(key === '' ? 0 : key.length + 1);
        if (entry?.kind === 'file') return { name, isFile: true, isDirectory: false, size: entry.data.length, mtimeMs: 0 };
        return { name, isFile: false, isDirectory: entry?.kind === 'dir' };
      });
    },
    async mkdir(p, opts) {
      const key = tree.resolve(p);
      guard(key, p);
      tree.parents(key, p, opts?.recursive === true);
      const node = tree.get(key);
      if (node !== undefined && !(node.kind === 'dir' && opts?.recursive === true)) throw new WorkspaceError('IO_ERROR', `${p} already exists`, { path: p });
      tree.nodes.set(key, { kind: 'dir', mode: 0o755 });
    },
    async remove(p, opts) {
      const key = tree.resolve(p, false);
      guard(key, p);
      const node = tree.get(key);
      if (node === undefined) throw new WorkspaceError('NOT_FOUND', `no such file or directory: ${p}`, { path: p });
      if (key === '') throw new WorkspaceError('PATH_OUTSIDE_MOUNT', 'the workspace root cannot be removed', { path: p });
      if (node.kind === 'dir' && opts?.recursive !== true) throw new WorkspaceError('NOT_A_FILE', `${p} is a directory; pass recursive: true to remove it`, { path: p });
      for (const k of [...tree.nodes.keys()]) if (k === key || k.startsWith(`${key}/`)) tree.nodes.delete(k);
    },
    async rename(from, to) {
      const source = tree.resolve(from, false);
      const target = tree.resolve(to, false);
      guard(source, from);
      guard(target, to);
      if (tree.get(source) === undefined) throw new WorkspaceError('NOT_FOUND', `no such file or directory: ${from}`, { path: from });
      tree.parents(target, to, false);
      // Like rename(2): the moved entry keeps its identity (a link stays a link) and replaces the target.
      for (const k of [...tree.nodes.keys()]) {
        if (k !== source && !k.startsWith(`${source}/`)) continue;
        tree.nodes.set(target + k.slice(source.length), tree.nodes.get(k) as never);
        tree.nodes.delete(k);
      }
    },
    exec,
    bytes: (p) => {
      const node = tree.get(tree.resolve(p));
      return node?.kind === 'file' ? Buffer.from(node.data) : undefined;
    },
    mode: (p) => {
      const node = tree.get(tree.resolve(p));
      return node === undefined || node.kind === 'link' ? undefined : node.mode;
    },
    chmod: (p, mode) => {
      const node = tree.get(tree.resolve(p));
      if (node === undefined || node.kind === 'link') throw new WorkspaceError('NOT_FOUND', `no such file: ${p}`, { path: p });
      node.mode = mode;
      if (node.kind === 'file') node.changes += 1;
    },
    symlink: (target, p) => {
      const key = tree.resolve(p, false);
      tree.parents(key, p, true);
      tree.nodes.set(key, { kind: 'link', target });
    },
    hardlink: (existing, p) => {
      const key = tree.resolve(p, false);
      tree.parents(key, p, true);
      tree.nodes.set(key, tree.file(tree.resolve(existing), existing));
    },
    list: () =>
      [...tree.nodes.entries()]
        .filter(([k]) => k !== '')
        .map(([k, n]) => (n.kind === 'dir' ? `${k}/` : n.kind === 'link' ? `${k}@` : k))
        .sort(),
  };
  return workspace;
}
