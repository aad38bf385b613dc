import fs from 'node:fs/promises';
import { constants, lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import type { WorkspaceDirEntry, WorkspaceStat } from '../../protocol/v1/workspace-types.js';
import { writeFileAtomic } from './atomic-write.js';
import { DEFAULT_MAX_READ_BYTES, readBounded } from './bounded-read.js';
import { WorkspaceError, toWorkspaceError } from './errors.js';
import { assertPolicyPathNamesTarget, openVerified } from './open-verified.js';
import { PathGuard } from './path-guard.js';
import type { PathMapping } from './path-mappings.js';
import { readDirectoryEntries } from './read-directory.js';

export interface HostFsBridgeOptions {
  mappings: readonly PathMapping[];
  /** Container directory relative paths resolve against; defaults to the first mapping's root. */
  cwd?: string;
  /** Read cap when a call names none. */
  maxReadBytes?: number;
}

export interface BridgeReadOptions {
  maxBytes?: number;
  expectedPolicyPath?: string;
  signal?: AbortSignal;
}

/**
 * File operations on host-backed mounts, each one admitted by the path guard.
 * Reads go through a verified fd with a byte cap; writes go through a temp file
 * and a rename, re-checked immediately before the rename.
 */
export class HostFsBridge {
  readonly guard: PathGuard;
  readonly #maxReadBytes: number;

  constructor(options: HostFsBridgeOptions) {
    this.guard = new PathGuard(options.mappings, { cwd: options.cwd });
    this.#maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  }

  get pathMappings(): readonly PathMapping[] {
    return this.guard.mappings;
  }

  /** Map an existing read target to its path in the caller-facing mount namespace. */
  async resolveReadPolicyPath(input: string): Promise<string> {
    const guarded = await this.guard.admit(input);
    if (!guarded.exists) throw new WorkspaceError('NOT_FOUND', `No such file or directory: ${input}`, { path: input });
    return guarded.canonicalPath;
  }

  async readFile(input: string, options: BridgeReadOptions = {}): Promise<{ path: string; data: Buffer }> {
    options.signal?.throwIfAborted();
    const guarded = await this.guard.admit(input);
    // O_NONBLOCK: opening a FIFO must not hang the bridge; it is refused below as not a file.
    const handle = await openVerified(this.guard, guarded, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new WorkspaceError('NOT_A_FILE', `Not a regular file: ${input}`, { path: input });
      if (options.expectedPolicyPath !== undefined) await assertPolicyPathNamesTarget(this.guard, options.expectedPolicyPath, handle);
      options.signal?.throwIfAborted();
      const data = await readBounded(handle, options.maxBytes ?? this.#maxReadBytes, input, stat.size);
      return { path: guarded.canonicalPath, data };
    } catch (error) {
      throw toWorkspaceError(error, input, 'read');
    } finally {
      await handle.close();
    }
  }

  async stat(input: string, options: { expectedPolicyPath?: string } = {}): Promise<WorkspaceStat> {
    const guarded = await this.guard.admit(input);
    try {
      const stat = statSync(guarded.hostPath); // metadata: synchronous, see canonical.ts
      if (options.expectedPolicyPath !== undefined) {
        const policy = await this.guard.admit(options.expectedPolicyPath).then((p) => statSync(p.hostPath)).catch(() => null);
        if (policy === null || policy.dev !== stat.dev || policy.ino !== stat.ino) {
          throw new WorkspaceError('POLICY_PATH_MISMATCH', `The policy path ${options.expectedPolicyPath} no longer names ${input}`, { path: options.expectedPolicyPath });
        }
      }
      return {
        path: guarded.canonicalPath,
        isFile: stat.isFile(),
        isDirectory: stat.isDirectory(),
        isSymbolicLink: await this.#isSymlink(input),
        size: stat.size,
        mtimeMs: stat.mtimeMs,
      };
    } catch (error) {
      throw toWorkspaceError(error, input, 'stat');
    }
  }

  async readDirectory(input: string): Promise<WorkspaceDirEntry[]> {
    const guarded = await this.guard.admit(input);
    try {
      const entries = await readDirectoryEntries(guarded.hostPath);
      await this.guard.recheck(guarded);
      return entries;
    } catch (error) {
      throw toWorkspaceError(error, input, 'list');
    }
  }

  async writeFile(input: string, data: Uint8Array, options: { mkdirs?: boolean; append?: boolean } = {}): Promise<{ path: string; bytes: number }> {
    const guarded = await this.guard.admit(input, { write: true });
    try {
      if (options.mkdirs === true) {
        await fs.mkdir(path.dirname(guarded.hostPath), { recursive: true });
        await this.guard.recheck(guarded);
      }
      let content = data;
      if (options.append === true && guarded.exists) {
        const previous = await this.readFile(input);
        content = Buffer.concat([previous.data, data]);
      }
      await writeFileAtomic(guarded.hostPath, content, { beforeRename: () => this.guard.recheck(guarded) });
      return { path: guarded.canonicalPath, bytes: content.byteLength };
    } catch (error) {
      throw toWorkspaceError(error, input, 'write');
    }
  }

  async mkdir(input: string, options: { recursive?: boolean } = {}): Promise<void> {
    const guarded = await this.guard.admit(input, { write: true });
    try {
      await this.guard.recheck(guarded);
      await fs.mkdir(guarded.hostPath, { recursive: options.recursive === true });
    } catch (error) {
      throw toWorkspaceError(error, input, 'create directory');
    }
  }

  async remove(input: string, options: { recursive?: boolean } = {}): Promise<void> {
    const guarded = await this.guard.admit(input, { write: true, keepFinalSymlink: true });
    try {
      await this.guard.recheck(guarded);
      const stat = lstatSync(guarded.hostPath);
      if (stat.isDirectory() && options.recursive !== true) {
        throw new WorkspaceError('NOT_A_FILE', `${input} is a directory; pass recursive: true to remove it`, { path: input });
      }
      await fs.rm(guarded.hostPath, { recursive: options.recursive === true });
    } catch (error) {
      throw toWorkspaceError(error, input, 'remove');
    }
  }

  async rename(from: string, to: string): Promise<void> {
    // Both ends act on names, not on what a symlink names: a moved link stays a link.
    const source = await this.guard.admit(from, { write: true, keepFinalSymlink: true });
    const target = await this.guard.admit(to, { write: true, keepFinalSymlink: true });
    try {
      await Promise.all([this.guard.recheck(source), this.guard.recheck(target)]);
      await fs.rename(source.hostPath, target.hostPath);
    } catch (error) {
      throw toWorkspaceError(error, from, 'rename');
    }
  }

  async #isSymlink(input: string): Promise<boolean> {
    try {
      const guarded = await this.guard.admit(input, { keepFinalSymlink: true });
      return lstatSync(guarded.hostPath).isSymbolicLink();
    } catch {
      return false; // a mount root is never reported as a link
    }
  }
}
