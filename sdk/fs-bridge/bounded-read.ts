import type { FileHandle } from 'node:fs/promises';
import { WorkspaceError } from './errors.js';

/** Default read cap of host-backed bridges: large enough for source files, small enough for a tool result. */
export const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;

function tooLarge(path: string, maxBytes: number, size: number, grew: boolean): WorkspaceError {
  const why = grew ? `grew past the ${maxBytes}-byte read limit while it was read` : `is ${size} bytes; the read limit is ${maxBytes} bytes`;
  return new WorkspaceError('FILE_TOO_LARGE', `File ${path} ${why}`, { path });
}

/**
 * Read an opened file, refusing one larger than `maxBytes`. The size from fstat is
 * only a first check: the read itself stops at maxBytes + 1 bytes, so a file that
 * grows after the stat still fails with FILE_TOO_LARGE instead of returning a
 * silently cut (or unbounded) buffer.
 */
export async function readBounded(handle: FileHandle, maxBytes: number, path: string, knownSize?: number): Promise<Buffer> {
  // A caller that has just fstat'ed the handle passes the size and saves a round trip.
  const stat = knownSize === undefined ? await handle.stat() : { size: knownSize };
  if (stat.size > maxBytes) throw tooLarge(path, maxBytes, stat.size, false);
  const limit = maxBytes + 1;
  // Size the buffer for what stat promised plus one byte, and grow only if the file does.
  let buffer = Buffer.allocUnsafe(Math.min(stat.size + 1, limit));
  let total = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, total, buffer.length - total, total);
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
