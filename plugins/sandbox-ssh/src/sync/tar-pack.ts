import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { hostStampOf, type HostEntry } from './host-scan.js';

const BLOCK = 512;
const CHUNK = 1024 * 1024;
const SMALL_FILE = 256 * 1024;
const COALESCE_BYTES = 64 * 1024;

/** What was sent for one file: the hash of its bytes, and whether it stayed still while read. */
export interface SentFile {
  hash: string;
  /** False when the file changed while it was read: its copy is not trusted, it is sent again later. */
  stable: boolean;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  return `${length}${body}`;
}

function header(name: string, type: string, mode: number, size: number, mtime: number, link = ''): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(mode & 0o7777, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.max(0, Math.floor(mtime)), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write(link, 157, 100, 'utf8');
  block.write('ustar\0' + '00', 257, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148, 'ascii');
  return block;
}

function currentStamp(abs: string): string | undefined {
  try {
    return hostStampOf(lstatSync(abs));
  } catch {
    return undefined;
  }
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Headers of one entry: a pax header first when a name, link or size does not fit ustar. */
function headersFor(path: string, entry: HostEntry): Buffer[] {
  const name = entry.kind === 'd' ? `${path}/` : path;
  const link = entry.link ?? '';
  const size = entry.kind === 'f' ? entry.size : 0;
  const pax = [
    Buffer.byteLength(name) > 100 ? paxRecord('path', name) : '',
    Buffer.byteLength(link) > 100 ? paxRecord('linkpath', link) : '',
    size > 0o77777777777 ? paxRecord('size', String(size)) : '',
  ].join('');
  const type = entry.kind === 'd' ? '5' : entry.kind === 'l' ? '2' : '0';
  const main = header(name, type, entry.mode, size > 0o77777777777 ? 0 : size, entry.mtimeMs / 1000, link);
  if (!pax) return [main];
  const body = Buffer.from(pax, 'utf8');
  return [header('././@PaxHeader', 'x', 0o644, body.length, 0), body, padding(body.length), main];
}

function* zeros(count: number): Generator<Buffer> {
  for (let left = count; left > 0; left -= CHUNK) yield Buffer.alloc(Math.min(CHUNK, left));
}

/** Files open for an archive; once the archive stream closed, none may stay open. */
interface OpenFiles {
  handles: Set<FileHandle>;
  closed: boolean;
}

/**
 * Opening by path is a second look after the scan, which a swap in between could redirect: the
 * final name turned into a symbolic link (O_NOFOLLOW refuses it), a parent directory turned into
 * one, or the file replaced by a hard link to a file outside the workspace. So the opened file
 * must be the very inode the scan saw (and still have one link, unless hard links are allowed);
 * anything else is not read at all. O_NONBLOCK: a FIFO swapped in must not hang the open.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function isScanned(stat: Stats, entry: HostEntry, allowHardLinks: boolean): boolean {
  return stat.isFile() && stat.dev === entry.dev && stat.ino === entry.ino && (allowHardLinks || stat.nlink <= 1);
}

/** Small files are read in one synchronous call: a thousand of them cost milliseconds, not seconds. */
function smallFile(abs: string, entry: HostEntry, sent: SentFile, allowHardLinks: boolean): Buffer[] {
  let data = Buffer.alloc(0);
  let fd: number | undefined;
  try {
    fd = openSync(abs, OPEN_FLAGS);
    if (isScanned(fstatSync(fd), entry, allowHardLinks)) data = readFileSync(fd);
    else sent.stable = false;
  } catch {
    // vanished or unreadable: padded below
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const body = data.length === entry.size ? data : Buffer.concat([data.subarray(0, entry.size), Buffer.alloc(Math.max(0, entry.size - data.length))]);
  if (data.length !== entry.size) sent.stable = false;
  sent.hash = createHash('sha256').update(body).digest('hex');
  return [body, padding(entry.size)];
}

/**
 * The entry's content, exactly `entry.size` bytes whatever happens to the file meanwhile:
 * the archive must stay well-formed. A file that shrank, vanished or failed to read is padded
 * with zeros and marked unstable, so its copy is never trusted and it is sent again.
 */
async function* fileBlocks(abs: string, entry: HostEntry, sent: SentFile, opened: OpenFiles, allowHardLinks: boolean): AsyncGenerator<Buffer> {
  if (entry.size <= SMALL_FILE) return yield* smallFile(abs, entry, sent, allowHardLinks);
  const hash = createHash('sha256');
  let left = entry.size;
  let handle = await open(abs, OPEN_FLAGS).catch(() => undefined);
  if (handle && opened.closed) return void (await handle.close());
  if (handle && !(await handle.stat().then((stat) => isScanned(stat, entry, allowHardLinks), () => false))) {
    await handle.close();
    handle = undefined; // not the scanned file: zeros, and sent again
  }
  if (handle) opened.handles.add(handle);
  try {
    while (handle && left > 0) {
      const want = Math.min(CHUNK, left);
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(want), 0, want, null).catch(() => ({ bytesRead: 0, buffer: Buffer.alloc(0) }));
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      hash.update(chunk);
      left -= bytesRead;
      yield chunk;
    }
  } finally {
    if (handle) opened.handles.delete(handle);
    await handle?.close();
  }
  if (left > 0) {
    sent.stable = false;
    yield* zeros(left);
  }
  sent.hash = hash.digest('hex');
  yield padding(entry.size);
}

/** Many small files make many tiny blocks; each write is an ssh packet, so they go out in chunks of at least 64 KiB. */
async function* coalesced(source: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let size = 0;
  for await (const block of source) {
    parts.push(block);
    size += block.length;
    if (size >= COALESCE_BYTES) {
      yield parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      parts = [];
      size = 0;
    }
  }
  if (size > 0) yield Buffer.concat(parts);
}

/**
 * A tar archive (ustar, pax for what does not fit) of the given entries of `root`, read as it
 * streams: no temp file, nothing whole in memory, and a consumer that stops reading (a
 * cancelled upload) stops the reading of files too. `sent` receives each file's hash and
 * whether it stayed unchanged while it was read. A file is read only through the inode the
 * scan saw (see OPEN_FLAGS), with one link unless `allowHardLinks`.
 */
export function packEntries(root: string, entries: ReadonlyArray<[string, HostEntry]>, sent: Map<string, SentFile>, options: { allowHardLinks?: boolean } = {}): Readable {
  const allowHardLinks = options.allowHardLinks === true;
  const opened: OpenFiles = { handles: new Set(), closed: false };
  async function* blocks(): AsyncGenerator<Buffer> {
    for (const [path, entry] of entries) {
      yield* headersFor(path, entry);
      if (entry.kind !== 'f') continue;
      const abs = join(root, path);
      const record: SentFile = { hash: '', stable: true };
      yield* fileBlocks(abs, entry, record, opened, allowHardLinks);
      // Changed since the scan (even with the same size): this copy is not the scanned file.
      if (currentStamp(abs) !== entry.stamp) record.stable = false;
      sent.set(path, record);
    }
    yield Buffer.alloc(BLOCK * 2);
  }
  const stream = Readable.from(coalesced(blocks()), { objectMode: false });
  // Destroyed mid-read (a cancelled upload), the generator may never resume: close its file here.
  stream.once('close', () => {
    opened.closed = true;
    for (const handle of opened.handles) void handle.close().catch(() => undefined);
  });
  return stream;
}
