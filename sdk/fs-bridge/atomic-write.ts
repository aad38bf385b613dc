import fs from 'node:fs/promises';
import { constants, fsync, linkSync, lstatSync, renameSync, type BigIntStats } from 'node:fs';
import { promisify } from 'node:util';
import { readBounded } from './bounded-read.js';
import { WorkspaceError, toWorkspaceError } from './errors.js';
import { fileVersion } from './file-version.js';
import { changedError, openDirectoryChain, type HeldDirectory } from './held-directory.js';
import { tempName, type TempJournal } from './temp-journal.js';

const fsyncFd = promisify(fsync);

export interface AtomicWriteOptions {
  /** Workspace path for errors (defaults to the file name). */
  input?: string;
  /** Permission bits for a file this write creates; default 0o666 minus the umask. */
  mode?: number;
  /** Replace only if the file's current version still equals this (else CONFLICT, nothing written). */
  expectVersion?: string;
  /** Create only if nothing exists at the name (else CONFLICT, nothing written). */
  createOnly?: boolean;
  /** Keep the current content in front of the new bytes, reading at most this many of them. */
  appendLimit?: number;
  /** Write a file with more than one hard link (replacing splits it from its twins). */
  allowHardLinks?: boolean;
  /** Records the temp file while it exists, so a crash's leftover is removed at the next start. */
  journal?: { journal: TempJournal; hostRoot: string; segments: readonly string[] };
  /** Called after the temp file is durable, right before the rename (tests use it to race). */
  beforeRename?: () => void | Promise<void>;
}

function conflict(input: string, why: string): WorkspaceError {
  return new WorkspaceError('CONFLICT', `Refusing to write ${input}: ${why}; nothing was written`, { path: input });
}

/** What is at the name now: nothing, or a regular file (anything else is refused). */
function currentFile(dir: HeldDirectory, name: string, input: string, allowHardLinks: boolean): BigIntStats | null {
  const stat = lstatSync(dir.at(name), { bigint: true, throwIfNoEntry: false }) ?? null;
  if (stat === null) return null;
  if (stat.isSymbolicLink()) throw changedError(input);
  if (!stat.isFile()) throw new WorkspaceError('NOT_A_FILE', `Cannot write ${input}: it is not a regular file`, { path: input });
  if (stat.nlink > 1n && !allowHardLinks) {
    throw new WorkspaceError('HARD_LINKED', `Refusing to write ${input}: it has ${stat.nlink} hard links, so it may be shared with a file outside the workspace`, { path: input });
  }
  return stat;
}

function assertVersion(current: BigIntStats | null, options: AtomicWriteOptions, input: string): void {
  if (options.createOnly === true && current !== null) throw conflict(input, 'something already exists at this path');
  if (options.expectVersion === undefined) return;
  if (current === null) throw conflict(input, 'the file was removed since it was read');
  if (fileVersion(current) !== options.expectVersion) throw conflict(input, 'the file changed since it was read');
}

async function readCurrent(dir: HeldDirectory, name: string, current: BigIntStats, limit: number, input: string): Promise<Buffer> {
  const handle = await fs.open(dir.at(name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const opened = await handle.stat({ bigint: true });
    if (opened.ino !== current.ino || opened.dev !== current.dev) throw changedError(input);
    return await readBounded(handle, limit, input);
  } finally {
    await handle.close();
  }
}

/**
 * Replace (or create) `name` in a held directory so that a reader, or a crash, sees the
 * old file or the whole new one: write a short-named temp file next to it (rename is
 * atomic only within one directory's file system), set its mode and owner explicitly
 * (a replaced file keeps its permission bits, minus set-id bits, and its owner where the
 * process may; the umask plays no part), fsync, re-check, rename, fsync the directory.
 * Every name is addressed through the held directory. Returns the bytes written.
 */
export async function replaceFileAt(dir: HeldDirectory, name: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<number> {
  const input = options.input ?? name;
  const current = currentFile(dir, name, input, options.allowHardLinks === true);
  assertVersion(current, options, input);
  const content = current !== null && options.appendLimit !== undefined
    ? Buffer.concat([await readCurrent(dir, name, current, options.appendLimit, input), data])
    : data;
  // An append is a read-modify-write: bytes another writer adds meanwhile must not be lost.
  const recheck = current !== null && options.appendLimit !== undefined && options.expectVersion === undefined
    ? { ...options, expectVersion: fileVersion(current) }
    : options;
  const temp = tempName();
  const forget = options.journal?.journal.record(options.journal.hostRoot, [...options.journal.segments, temp]);
  try {
    // A new file without an explicit mode gets the umask default from open(); anything else
    // starts owner-only so the content is never exposed under looser bits than the final ones.
    const explicitMode = current !== null ? Number(current.mode & 0o777n) : options.mode === undefined ? undefined : options.mode & 0o777;
    const handle = await fs.open(dir.at(temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, explicitMode === undefined ? 0o666 : 0o600);
    try {
      await handle.writeFile(content);
      if (explicitMode !== undefined) await handle.chmod(explicitMode);
      if (current !== null) await handle.chown(Number(current.uid), Number(current.gid)).catch(() => undefined); // only where permitted
      await handle.sync();
    } finally {
      await handle.close();
    }
    await options.beforeRename?.();
    dir.verify();
    assertVersion(currentFile(dir, name, input, options.allowHardLinks === true), recheck, input);
    if (options.createOnly === true) createWithoutReplacing(dir, temp, name, input);
    else renameSync(dir.at(temp), dir.at(name));
    // Make the rename itself durable; some file systems refuse fsync on a directory, which is fine.
    await fsyncFd(dir.fd).catch(() => undefined);
    return content.byteLength;
  } catch (error) {
    throw toWorkspaceError(error, input, 'write');
  } finally {
    // After a rename the name is free again and this is a no-op.
    await fs.rm(dir.at(temp), { force: true }).catch(() => undefined);
    forget?.();
  }
}

/** Move the temp file to a name that must still be free: link() never replaces an entry. */
function createWithoutReplacing(dir: HeldDirectory, temp: string, name: string, input: string): void {
  try {
    linkSync(dir.at(temp), dir.at(name));
  } catch (error) {
    const exists = (error as { code?: string }).code === 'EEXIST' || lstatSync(dir.at(name), { throwIfNoEntry: false }) !== undefined;
    if (exists) throw conflict(input, 'something already exists at this path');
    renameSync(dir.at(temp), dir.at(name)); // a file system without hard links: checked just above
  }
}

/**
 * Path form of replaceFileAt for callers without a guard: opens the target's directory
 * (which must be a canonical, symlink-free path) and writes through it.
 */
export async function writeFileAtomic(target: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<number> {
  const dir = openDirectoryChain(target.slice(0, target.lastIndexOf('/')) || '/', [], { input: options.input ?? target });
  try {
    return await replaceFileAt(dir, target.slice(target.lastIndexOf('/') + 1), data, options);
  } finally {
    dir.close();
  }
}
