import { SandboxError } from '../../../../sdk/sandbox/errors.js';
import type { EntryKind } from './host-scan.js';

/** One remote path as `find -printf FIND_FORMAT` describes it. */
export interface RemoteRecord {
  /** Relative to the tree, without `./`. */
  path: string;
  kind: EntryKind | 'other';
  mode: number;
  size: number;
  /** Changes whenever the entry does (content, times, inode, or link target). */
  stamp: string;
  link?: string;
}

/** The identity a record is compared by: what a later record must equal for "unchanged". */
function stampOf(kind: RemoteRecord['kind'], mode: string, size: string, inode: string, mtime: string, ctime: string, link: string): string {
  if (kind === 'd') return `d:${mode}`;
  if (kind === 'l') return `l:${link}`;
  return `${kind}:${mode}:${size}:${inode}:${mtime}:${ctime}`;
}

/** Parses NUL-separated FIND_FORMAT records; a malformed stream is a SYNC_FAILED, never guessed at. */
export function parseRemoteRecords(data: Buffer): RemoteRecord[] {
  const fields = data.toString('utf8').split('\0');
  if (fields.at(-1) === '') fields.pop();
  if (fields.length % 3 !== 0) throw new SandboxError('SYNC_FAILED', 'The remote sent a malformed file listing');
  const out: RemoteRecord[] = [];
  for (let i = 0; i < fields.length; i += 3) {
    const [head, rawPath, link] = [fields[i]!, fields[i + 1]!, fields[i + 2]!];
    const parts = head.split('/');
    if (parts.length !== 6) throw new SandboxError('SYNC_FAILED', `The remote sent a malformed file record: ${JSON.stringify(head)}`);
    const [type, mode, size, inode, mtime, ctime] = parts as [string, string, string, string, string, string];
    const kind: RemoteRecord['kind'] = type === 'f' || type === 'd' || type === 'l' ? type : 'other';
    const path = rawPath.startsWith('./') ? rawPath.slice(2) : rawPath;
    out.push({ path, kind, mode: parseInt(mode, 8), size: Number(size), stamp: stampOf(kind, mode, size, inode, mtime, ctime, link), link: kind === 'l' ? link : undefined });
  }
  return out;
}

/** `./path` for each path: a name starting with `-` is never read as an option. */
export function nulPathList(paths: Iterable<string>): Buffer {
  const parts: string[] = [];
  for (const p of paths) parts.push(`./${p}\0`);
  return Buffer.from(parts.join(''), 'utf8');
}
