import { SandboxError } from '../../../../sdk/sandbox/errors.js';

const BLOCK = 512;
const MAX_PAX_BYTES = 64 * 1024;

export interface TarFile {
  path: string;
  mode: number;
  data: Buffer;
}

const bad = (why: string) => new SandboxError('SYNC_FAILED', `The remote sent a malformed archive: ${why}`);

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function octalField(block: Buffer, start: number, length: number): number {
  const text = field(block, start, length).trim();
  if (!/^[0-7]*$/.test(text)) throw bad(`a numeric field holds ${JSON.stringify(text)}`);
  return text === '' ? 0 : parseInt(text, 8);
}

function paxAttributes(body: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const length = Number(body.subarray(at, space).toString('ascii'));
    if (space === -1 || !Number.isInteger(length) || length <= 0 || at + length > body.length) throw bad('a pax record has a wrong length');
    const record = body.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}

/**
 * A strict streaming reader of the ustar/pax archives GNU tar writes (`--format=posix`). It
 * keeps only regular files the caller asked for, each at most `maxFileBytes`; everything
 * else (other paths, types, oversized entries) is skipped without being buffered, so a
 * hostile remote can neither plant a path nor fill our memory.
 */
export class TarReader {
  readonly files = new Map<string, TarFile>();
  private buffered: Buffer = Buffer.alloc(0);
  private pax: Map<string, string> | undefined;
  private entry: { type: string; path: string; mode: number; size: number; keep: boolean; parts: Buffer[]; got: number } | undefined;
  private ended = false;

  constructor(private readonly wanted: ReadonlySet<string>, private readonly maxFileBytes: number) {}

  push(chunk: Buffer): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    for (;;) {
      if (this.entry) {
        if (!this.consumeBody()) return;
        continue;
      }
      if (this.ended || this.buffered.length < BLOCK) return;
      const block = this.buffered.subarray(0, BLOCK);
      this.buffered = this.buffered.subarray(BLOCK);
      if (block.every((b) => b === 0)) { this.ended = true; return; }
      this.startEntry(block);
    }
  }

  /** Throws unless the archive ended properly (a cut stream is never taken as complete). */
  finish(): void {
    if (!this.ended && (this.entry || this.buffered.length > 0 || this.files.size > 0 || this.pax)) throw bad('it ended in the middle');
  }

  private startEntry(block: Buffer): void {
    if (field(block, 257, 6) !== 'ustar') throw bad('a header without the ustar magic');
    const stored = octalField(block, 148, 8);
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
    if (sum !== stored) throw bad('a header checksum does not match');
    const type = String.fromCharCode(block[156] || 0x30);
    const prefix = field(block, 345, 155);
    const name = field(block, 0, 100);
    const pax = this.pax;
    this.pax = undefined;
    const path = (pax?.get('path') ?? (prefix ? `${prefix}/${name}` : name)).replace(/^\.\//, '');
    const size = pax?.has('size') ? Number(pax.get('size')) : octalField(block, 124, 12);
    if (!Number.isSafeInteger(size) || size < 0) throw bad('an entry has an impossible size');
    const keep = (type === 'x' && size <= MAX_PAX_BYTES) || (type === '0' && this.wanted.has(path) && size <= this.maxFileBytes && !this.files.has(path));
    this.entry = { type, path, mode: octalField(block, 100, 8), size, keep, parts: [], got: 0 };
  }

  /** Takes what is buffered of the current entry's body (and its padding); true when it is done. */
  private consumeBody(): boolean {
    const e = this.entry!;
    const padded = Math.ceil(e.size / BLOCK) * BLOCK;
    const take = Math.min(padded - e.got, this.buffered.length);
    const dataPart = this.buffered.subarray(0, Math.max(0, Math.min(take, e.size - e.got)));
    if (e.keep && dataPart.length) e.parts.push(Buffer.from(dataPart));
    e.got += take;
    this.buffered = this.buffered.subarray(take);
    if (e.got < padded) return false;
    this.entry = undefined;
    const body = Buffer.concat(e.parts);
    if (e.type === 'x' && e.keep) this.pax = paxAttributes(body);
    else if (e.type === '0' && e.keep) this.files.set(e.path, { path: e.path, mode: e.mode, data: body });
    return true;
  }
}
