import type { WorkspaceDirEntry, WorkspaceStat } from '../../../protocol/v1/workspace-types.js';
import { SandboxError } from '../errors.js';

type StatFields = Omit<WorkspaceStat, 'path' | 'isSymbolicLink'>;

/** `2026-12-01 03:23:51.890034642 +0000` (stat %y under TZ=UTC) in ms, or NaN. */
function parseStatTime(text: string): number {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))? \+0000$/.exec(text);
  if (!m) return Number.NaN;
  return Date.parse(`${m[1]}T${m[2]}Z`) + Number(`0.${m[3] ?? '0'}`) * 1000;
}

/**
 * Parses a line of guard/scripts.ts STAT_FORMAT (`links|size|type|mtime|mode|uid:gid|
 * version`) under LC_ALL=C. GNU says "regular empty file" where busybox says "regular
 * file"; both are files. Unknown kinds are neither file nor directory, never guessed.
 */
export function parseStatLine(line: string): StatFields {
  const [links, size, kind, mtime, mode, , version] = line.split('|');
  const mtimeMs = parseStatTime(mtime ?? '');
  if (version === undefined || !/^\d+$/.test(links) || !/^[0-7]+$/.test(mode) || Number.isNaN(mtimeMs)) {
    throw new SandboxError('IO_ERROR', `Unexpected stat output from the sandbox: ${JSON.stringify(line.slice(0, 200))}`);
  }
  const isFile = kind.startsWith('regular');
  return {
    isFile,
    isDirectory: kind === 'directory',
    size: Number(size),
    mtimeMs,
    mode: Number.parseInt(mode, 8),
    nlink: Number(links),
    ...(isFile ? { version } : {}),
  };
}

/** Parses LIST_SCRIPT output (`type|size|mtime\nname\0` records) into entries sorted by name. */
export function parseDirectoryListing(text: string): WorkspaceDirEntry[] {
  const entries: WorkspaceDirEntry[] = [];
  for (const record of text.split('\0')) {
    const nl = record.indexOf('\n');
    if (nl === -1) continue;
    const name = record.slice(nl + 1);
    const [kind, size, mtime] = record.slice(0, nl).split('|');
    if (kind === undefined || size === undefined || mtime === undefined) {
      throw new SandboxError('IO_ERROR', `Unexpected listing output from the sandbox: ${JSON.stringify(record.slice(0, 200))}`);
    }
    entries.push({ name, isFile: kind.startsWith('regular'), isDirectory: kind === 'directory', size: Number(size), mtimeMs: Number(mtime) * 1000 });
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Splits `count` NUL-terminated fields (headers, stat lines) off an operation's stdout. */
export function takeFields(stdout: Buffer, count: number): { fields: string[]; rest: Buffer } {
  const fields: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const end = stdout.indexOf(0, at);
    if (end === -1) throw new SandboxError('IO_ERROR', 'Truncated output from a sandbox file operation');
    fields.push(stdout.subarray(at, end).toString('utf8'));
    at = end + 1;
  }
  return { fields, rest: stdout.subarray(at) };
}
