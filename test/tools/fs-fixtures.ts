import fs from 'node:fs/promises';
import path from 'node:path';
import type { WorkspaceService } from '../../protocol/index.js';
import { WorkspaceError } from '../../sdk/plugin-api.js';
import { createMemoryWorkspace, type MemoryWorkspace } from '../../sdk/testing/index.js';
import { tempWorkspace } from './helpers.js';

/** A workspace plus byte-level access to its files, the same for the in-memory double and the real local backend. */
export interface FsFixture {
  name: string;
  workspace: WorkspaceService;
  put(file: string, bytes: string | Buffer, mode?: number): Promise<void>;
  /** The file's exact bytes, or undefined when it does not exist. */
  bytes(file: string): Promise<Buffer | undefined>;
  mode(file: string): Promise<number | undefined>;
  symlink(target: string, file: string): Promise<void>;
  /** Every entry under the root, sorted, directories ending with `/`, links with `@`. */
  list(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export function memoryFixture(options: { protectedPaths?: string[]; files?: Record<string, string> } = {}): FsFixture & { memory: MemoryWorkspace } {
  const memory = createMemoryWorkspace(options.files, undefined, options);
  return {
    name: 'memory',
    memory,
    workspace: memory,
    async put(file, bytes, mode) {
      await memory.write(file, Buffer.from(bytes).toString('base64'), { encoding: 'base64', mkdirs: true });
      if (mode !== undefined) memory.chmod(file, mode);
    },
    bytes: async (file) => memory.bytes(file),
    mode: async (file) => memory.mode(file),
    symlink: async (target, file) => memory.symlink(target, file),
    list: async () => memory.list(),
    cleanup: async () => undefined,
  };
}

async function walk(root: string, dir = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(`${rel}/`, ...(await walk(root, rel)));
    else out.push(entry.isSymbolicLink() ? `${rel}@` : rel);
  }
  return out;
}

export async function localFixture(): Promise<FsFixture & { dir: string }> {
  const t = await tempWorkspace();
  return {
    name: 'local',
    dir: t.dir,
    workspace: t.workspace,
    async put(file, bytes, mode) {
      await t.file(file, bytes);
      if (mode !== undefined) await fs.chmod(path.join(t.dir, file), mode);
    },
    bytes: (file) => fs.readFile(path.join(t.dir, file)).catch(() => undefined),
    mode: async (file) => {
      const stat = await fs.stat(path.join(t.dir, file)).catch(() => undefined);
      return stat === undefined ? undefined : stat.mode & 0o7777;
    },
    symlink: (target, file) => fs.symlink(target, path.join(t.dir, file)),
    list: async () => (await walk(t.dir)).sort(),
    cleanup: t.cleanup,
  };
}

/** The same workspace with some operations replaced (to fail a write, or to change a file right before one). */
export function intercept(workspace: WorkspaceService, overrides: Partial<WorkspaceService>): WorkspaceService {
  return {
    read: workspace.read.bind(workspace),
    write: workspace.write.bind(workspace),
    stat: workspace.stat.bind(workspace),
    readDirectory: workspace.readDirectory.bind(workspace),
    mkdir: workspace.mkdir.bind(workspace),
    remove: workspace.remove.bind(workspace),
    rename: workspace.rename.bind(workspace),
    exec: workspace.exec.bind(workspace),
    ...overrides,
  };
}

/** A workspace whose writes to paths ending in `suffix` fail like a full disk. */
export function failingWritesTo(workspace: WorkspaceService, suffix: string): WorkspaceService {
  return intercept(workspace, {
    write: async (p, c, o, s) => {
      if (p.endsWith(suffix)) throw new WorkspaceError('IO_ERROR', `Cannot write ${p}: No space left on device`, { path: p });
      return workspace.write(p, c, o, s);
    },
  });
}
