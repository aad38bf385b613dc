import path from 'node:path';
import type { WorkspaceDirEntry, WorkspaceService } from '../../protocol/index.js';
import { WorkspaceError } from '../plugin/errors.js';

/**
 * An in-memory WorkspaceService for plugin tests: files are a path → content map, `exec` runs
 * a function you pass. Paths are normalized POSIX paths relative to `/workspace`.
 * @since 1
 */
export function createMemoryWorkspace(
  files: Record<string, string> = {},
  exec: WorkspaceService['exec'] = async (command) => ({ exitCode: 127, signal: null, stdout: '', stderr: `no exec in memory workspace: ${command}`, timedOut: false, truncated: false, durationMs: 0 }),
): WorkspaceService & { files: Map<string, string> } {
  const norm = (p: string): string => path.posix.relative('/workspace', path.posix.resolve('/workspace', p));
  const map = new Map(Object.entries(files).map(([k, v]) => [norm(k), v]));
  const dirs = (): Set<string> => new Set([...map.keys()].flatMap((k) => k.split('/').slice(0, -1).map((_, i, a) => a.slice(0, i + 1).join('/'))));
  const need = (p: string): string => {
    const content = map.get(norm(p));
    if (content === undefined) throw new WorkspaceError('NOT_FOUND', `no such file: ${p}`, { path: p });
    return content;
  };
  return {
    files: map,
    async read(p) {
      const content = need(p);
      return { path: norm(p), content, encoding: 'utf8', size: Buffer.byteLength(content) };
    },
    async write(p, content, options) {
      const prev = options?.append ? (map.get(norm(p)) ?? '') : '';
      map.set(norm(p), prev + content);
      return { path: norm(p), bytes: Buffer.byteLength(content) };
    },
    async stat(p) {
      const key = norm(p);
      const isDirectory = key === '' || dirs().has(key);
      if (!isDirectory) need(p);
      const size = isDirectory ? 0 : Buffer.byteLength(map.get(key) ?? '');
      return { path: key, isFile: !isDirectory, isDirectory, isSymbolicLink: false, size, mtimeMs: 0 };
    },
    async readDirectory(p) {
      const prefix = norm(p) === '' ? '' : norm(p) + '/';
      const names = new Map<string, WorkspaceDirEntry>();
      for (const key of map.keys()) {
        if (!key.startsWith(prefix)) continue;
        const [head, ...rest] = key.slice(prefix.length).split('/');
        if (head) names.set(head, { name: head, isFile: rest.length === 0, isDirectory: rest.length > 0 });
      }
      return [...names.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
    async mkdir() {},
    async remove(p, options) {
      const key = norm(p);
      for (const k of [...map.keys()]) if (k === key || (options?.recursive && k.startsWith(key + '/'))) map.delete(k);
    },
    async rename(from, to) {
      map.set(norm(to), need(from));
      map.delete(norm(from));
    },
    exec,
  };
}
