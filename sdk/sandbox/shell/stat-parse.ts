import type { WorkspaceDirEntry, WorkspaceStat } from '../../../protocol/v1/workspace-types.js';
import { SandboxError } from '../errors.js';

type StatFields = Omit<WorkspaceStat, 'path' | 'isSymbolicLink'>;

/**
 * Parses `%F|%s|%Y` from `stat -c` under LC_ALL=C. GNU says "regular empty file" where
 * busybox says "regular file"; both are files. Unknown kinds are neither file nor
 * directory, never guessed.
 */
export function parseStatLine(line: string): StatFields {
  const [kind, size, mtime] = line.split('|');
  if (kind === undefined || size === undefined || mtime === undefined) {
    throw new SandboxError('IO_ERROR', `Unexpected stat output from the sandbox: ${JSON.stringify(line.slice(0, 200))}`);
  }
  return {
    isFile: kind.startsWith('regular'),
    isDirectory: kind === 'directory',
    size: Number(size),
    mtimeMs: Number(mtime) * 1000,
  };
}

/** Parses LIST_SCRIPT output into entries sorted by name (shells glob in locale order). */
export function parseDirectoryListing(text: string): WorkspaceDirEntry[] {
  const entries: WorkspaceDirEntry[] = [];
  for (const record of text.split('\0')) {
    const nl = record.indexOf('\n');
    if (nl === -1) continue;
    const name = record.slice(nl + 1);
    const fields = parseStatLine(record.slice(0, nl));
    entries.push({ name, isFile: fields.isFile, isDirectory: fields.isDirectory, size: fields.size, mtimeMs: fields.mtimeMs });
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
