import { closeSync, constants, fstatSync, lstatSync, mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import type { WorkspaceDirEntry, WorkspaceStat } from '../../protocol/v1/workspace-types.js';
import { replaceFileAt } from './atomic-write.js';
import { DEFAULT_MAX_READ_BYTES, readBoundedFd } from './bounded-read.js';
import { WorkspaceError, toWorkspaceError } from './errors.js';
import { fileFacts, fileVersion } from './file-version.js';
import { changedError, openDirectoryChain, type HeldDirectory } from './held-directory.js';
import { assertPolicyPathNamesFile, openVerifiedFd } from './open-verified.js';
import { PathGuard, type GuardedPath } from './path-guard.js';
import type { PathMapping } from './path-mappings.js';
import { readDirectoryEntries } from './read-directory.js';
import { removeTreeAt } from './remove-tree.js';
import type { TempJournal } from './temp-journal.js';

export interface HostFsBridgeOptions {
  mappings: readonly PathMapping[];
  /** Container directory relative paths resolve against; defaults to the first mapping's root. */
  cwd?: string;
  /** Read cap when a call names none. */
  maxReadBytes?: number;
  /** Read and write regular files with more than one hard link (refused with HARD_LINKED by default). */
  allowHardLinks?: boolean;
  /** Records in-flight temp files so a crash's leftovers are removed at the next start. */
  tempJournal?: TempJournal;
}

export interface BridgeReadOptions {
  maxBytes?: number;
  expectedPolicyPath?: string;
  signal?: AbortSignal;
}

export interface BridgeWriteOptions {
  mkdirs?: boolean;
  append?: boolean;
  expectVersion?: string;
  createOnly?: boolean;
  mode?: number;
}

function hardLinked(input: string, nlink: bigint | number): WorkspaceError {
  return new WorkspaceError('HARD_LINKED', `Refusing to read ${input}: it has ${nlink} hard links, so it may be shared with a file outside the workspace`, { path: input });
}

/**
 * File operations on host-backed mounts, each one admitted by the path guard. Reads
 * open the canonical path without following and verify the fd; every mutation walks
 * from the mount root holding each directory open (see held-directory.ts), so what is
 * created, replaced, moved or removed is always in the directory that was checked.
 */
export class HostFsBridge {
  readonly guard: PathGuard;
  readonly #maxReadBytes: number;
  readonly #allowHardLinks: boolean;
  readonly #journal: TempJournal | undefined;

  constructor(options: HostFsBridgeOptions) {
    this.guard = new PathGuard(options.mappings, { cwd: options.cwd });
    this.#maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
    this.#allowHardLinks = options.allowHardLinks === true;
    this.#journal = options.tempJournal;
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

  async readFile(input: string, options: BridgeReadOptions = {}): Promise<{ path: string; data: Buffer; version: string }> {
    options.signal?.throwIfAborted();
    const guarded = await this.guard.admit(input);
    // O_NONBLOCK: opening a FIFO must not hang the bridge; it is refused below as not a file.
    // A raw fd, opened and read synchronously (see openVerifiedFd, readBoundedFd).
    const { fd, stat } = await openVerifiedFd(this.guard, guarded, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!stat.isFile()) throw new WorkspaceError('NOT_A_FILE', `Not a regular file: ${input}`, { path: input });
      if (stat.nlink > 1n && !this.#allowHardLinks) throw hardLinked(input, stat.nlink);
      if (options.expectedPolicyPath !== undefined) await assertPolicyPathNamesFile(this.guard, options.expectedPolicyPath, stat);
      options.signal?.throwIfAborted();
      const data = await readBoundedFd(fd, options.maxBytes ?? this.#maxReadBytes, input, Number(stat.size));
      return { path: guarded.canonicalPath, data, version: fileVersion(stat) };
    } catch (error) {
      throw toWorkspaceError(error, input, 'read');
    } finally {
      closeSync(fd);
    }
  }

  async stat(input: string, options: { expectedPolicyPath?: string } = {}): Promise<WorkspaceStat> {
    const guarded = await this.guard.admit(input);
    try {
      const stat = this.#atParent(guarded, (dir, name) => {
        if (name === undefined) return fstatSync(dir.fd, { bigint: true });
        const found = lstatSync(dir.at(name), { bigint: true });
        if (found.isSymbolicLink()) throw changedError(input); // the canonical name was swapped for a link
        return found;
      });
      if (options.expectedPolicyPath !== undefined) {
        const policy = await this.guard.admit(options.expectedPolicyPath).then((p) => statSync(p.hostPath, { bigint: true })).catch(() => null);
        if (policy === null || policy.dev !== stat.dev || policy.ino !== stat.ino) {
          throw new WorkspaceError('POLICY_PATH_MISMATCH', `The policy path ${options.expectedPolicyPath} no longer names ${input}`, { path: options.expectedPolicyPath });
        }
      }
      return {
        path: guarded.canonicalPath,
        isFile: stat.isFile(),
        isDirectory: stat.isDirectory(),
        isSymbolicLink: await this.#isSymlink(input),
        size: Number(stat.size),
        mtimeMs: Number(stat.mtimeNs / 1000n) / 1000,
        ...fileFacts(stat),
      };
    } catch (error) {
      throw toWorkspaceError(error, input, 'stat');
    }
  }

  async readDirectory(input: string): Promise<WorkspaceDirEntry[]> {
    const guarded = await this.guard.admit(input);
    let dir: HeldDirectory | undefined;
    try {
      dir = openDirectoryChain(guarded.hostRoot, guarded.segments, { input });
      return await readDirectoryEntries(dir.self);
    } catch (error) {
      throw toWorkspaceError(error, input, 'list');
    } finally {
      dir?.close();
    }
  }

  async writeFile(input: string, data: Uint8Array, options: BridgeWriteOptions = {}): Promise<{ path: string; bytes: number }> {
    const guarded = await this.guard.admit(input, { write: true });
    const name = guarded.segments.at(-1);
    if (name === undefined) throw new WorkspaceError('NOT_A_FILE', `Cannot write ${input}: it is a directory`, { path: input });
    const parent = guarded.segments.slice(0, -1);
    let dir: HeldDirectory | undefined;
    try {
      dir = openDirectoryChain(guarded.hostRoot, parent, { create: options.mkdirs === true, input });
      const bytes = await replaceFileAt(dir, name, data, {
        input,
        mode: options.mode,
        expectVersion: options.expectVersion,
        createOnly: options.createOnly,
        allowHardLinks: this.#allowHardLinks,
        ...(options.append === true ? { appendLimit: this.#maxReadBytes } : {}),
        ...(this.#journal !== undefined ? { journal: { journal: this.#journal, hostRoot: guarded.hostRoot, segments: parent } } : {}),
      });
      return { path: guarded.canonicalPath, bytes };
    } catch (error) {
      throw toWorkspaceError(error, input, 'write');
    } finally {
      dir?.close();
    }
  }

  async mkdir(input: string, options: { recursive?: boolean } = {}): Promise<void> {
    const guarded = await this.guard.admit(input, { write: true });
    const recursive = options.recursive === true;
    try {
      this.#atParent(guarded, (dir, name) => {
        if (name === undefined) {
          if (!recursive) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
          return;
        }
        dir.verify();
        try {
          mkdirSync(dir.at(name));
        } catch (error) {
          const isDirectory = lstatSync(dir.at(name), { throwIfNoEntry: false })?.isDirectory() === true;
          if (!(recursive && isDirectory)) throw error;
        }
      }, recursive);
    } catch (error) {
      throw toWorkspaceError(error, input, 'create directory');
    }
  }

  async remove(input: string, options: { recursive?: boolean } = {}): Promise<void> {
    const guarded = await this.guard.admit(input, { write: true, keepFinalSymlink: true, detaches: true });
    const name = guarded.segments.at(-1);
    if (name === undefined) throw new WorkspaceError('PATH_NOT_ADMITTED', `Refusing to remove a mount root: ${input}`, { path: input });
    let dir: HeldDirectory | undefined;
    try {
      dir = openDirectoryChain(guarded.hostRoot, guarded.segments.slice(0, -1), { input });
      const stat = lstatSync(dir.at(name));
      if (stat.isDirectory() && options.recursive !== true) {
        throw new WorkspaceError('NOT_A_FILE', `${input} is a directory; pass recursive: true to remove it`, { path: input });
      }
      dir.verify();
      if (stat.isDirectory()) await removeTreeAt(dir, name);
      else unlinkSync(dir.at(name));
    } catch (error) {
      throw toWorkspaceError(error, input, 'remove');
    } finally {
      dir?.close();
    }
  }

  async rename(from: string, to: string): Promise<void> {
    // Both ends act on names, not on what a symlink names: a moved link stays a link.
    const source = await this.guard.admit(from, { write: true, keepFinalSymlink: true, detaches: true });
    const target = await this.guard.admit(to, { write: true, keepFinalSymlink: true, detaches: true });
    const [sourceName, targetName] = [source.segments.at(-1), target.segments.at(-1)];
    if (sourceName === undefined || targetName === undefined) {
      throw new WorkspaceError('PATH_NOT_ADMITTED', `Refusing to move a mount root: ${from} -> ${to}`, { path: from });
    }
    let sourceDir: HeldDirectory | undefined;
    let targetDir: HeldDirectory | undefined;
    try {
      sourceDir = openDirectoryChain(source.hostRoot, source.segments.slice(0, -1), { input: from });
      targetDir = openDirectoryChain(target.hostRoot, target.segments.slice(0, -1), { input: to });
      sourceDir.verify();
      targetDir.verify();
      renameSync(sourceDir.at(sourceName), targetDir.at(targetName));
    } catch (error) {
      throw toWorkspaceError(error, from, 'rename');
    } finally {
      sourceDir?.close();
      targetDir?.close();
    }
  }

  /** Run `act` in the held parent of a guarded path (name undefined: the path is the mount root itself). */
  #atParent<T>(guarded: GuardedPath, act: (dir: HeldDirectory, name: string | undefined) => T, create = false): T {
    const name = guarded.segments.at(-1);
    const dir = openDirectoryChain(guarded.hostRoot, name === undefined ? [] : guarded.segments.slice(0, -1), { create, input: guarded.input });
    try {
      return act(dir, name);
    } finally {
      dir.close();
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
