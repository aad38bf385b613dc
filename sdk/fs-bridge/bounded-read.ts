import { read, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { WorkspaceError } from './errors.js';

/** Default read cap of host-backed bridges: large enough for source files, small enough for a tool result. */
export const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;

function tooLarge(path: string, maxBytes: number, size: number, grew: boolean): WorkspaceError {
  const why = grew ? `grew past the ${maxBytes}-byte read limit while it was read` : `is ${size} bytes; the read limit is ${maxBytes} bytes`;
  return new WorkspaceError('FILE_TOO_LARGE', `File ${path} ${why}`, { path });
}

/** Reads up to `length` bytes at `position` into `buffer` at `offset`; the count read. */
type ReadAt = (buffer: Buffer, offset: number, length: number, position: number) => number | Promise<number>;

/**
 * Read an opened file, refusing one larger than `maxBytes`. The size from fstat is
 * only a first check: the read itself stops at maxBytes + 1 bytes, so a file that
 * grows after the stat still fails with FILE_TOO_LARGE instead of returning a
 * silently cut (or unbounded) buffer.
 */
export async function readBounded(handle: FileHandle, maxBytes: number, path: string, knownSize?: number): Promise<Buffer> {
  // A caller that has just fstat'ed the handle passes the size and saves a round trip.
  const size = knownSize ?? (await handle.stat()).size;
  return readUpTo((buffer, offset, length, position) => handle.read(buffer, offset, length, position).then((r) => r.bytesRead), maxBytes, path, size);
}

/**
 * The first this many bytes of a raw-fd read are read synchronously: a source file comes from
 * the page cache in microseconds, while each thread-pool round trip costs tens of them. The rest
 * of a larger file goes through the pool, so one big read does not stall every other request.
 */
export const SYNC_READ_MAX_BYTES = 256 * 1024;

const readAsync = promisify(read);

/** `readBounded` on a raw fd (blocking for at most SYNC_READ_MAX_BYTES of it, see there). */
export function readBoundedFd(fd: number, maxBytes: number, path: string, knownSize: number): Promise<Buffer> {
  const readAt: ReadAt = (buffer, offset, length, position) =>
    offset < SYNC_READ_MAX_BYTES
      ? readSync(fd, buffer, offset, Math.min(length, SYNC_READ_MAX_BYTES - offset), position)
      : readAsync(fd, buffer, offset, length, position).then((r) => r.bytesRead);
  return readUpTo(readAt, maxBytes, path, knownSize);
}

async function readUpTo(readAt: ReadAt, maxBytes: number, path: string, size: number): Promise<Buffer> {
  if (size > maxBytes) throw tooLarge(path, maxBytes, size, false);
  const limit = maxBytes + 1;
  // Size the buffer for what stat promised plus one byte, and grow only if the file does.
  let buffer = Buffer.allocUnsafe(Math.min(size + 1, limit));
  let total = 0;
  for (;;) {
    const bytesRead = await readAt(buffer, total, buffer.length - total, total);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total === limit) break;
    if (total === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit));
      buffer.copy(grown, 0, 0, total);
      buffer = grown;
    }
  }
  if (total > maxBytes) throw tooLarge(path, maxBytes, total, true);
  return buffer.subarray(0, total);
}
