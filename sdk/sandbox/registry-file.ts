import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { SandboxError } from './errors.js';

/**
 * The registry file on disk. It holds session keys, so it is created owner-only (0600, in a
 * directory created 0700); it is never read or written through a symlink; and it is replaced
 * by renaming a temp file that was created exclusively (`O_EXCL`, a random name), so another
 * local user cannot plant a file or a symlink for the write to follow.
 */
const FIX = 'Move it aside or delete it (the last-use times it held are lost; containers are not affected), then retry.';

function corrupt(file: string, why: string, cause?: unknown): SandboxError {
  return new SandboxError('REGISTRY_CORRUPT', `Sandbox registry ${file} ${why}. It was left as it is. ${FIX}`, { cause, data: { file } });
}

/**
 * Last-use times decide what prune removes and what counts as in use: a file another local user
 * owns or can write could steer both, so it is not trusted.
 */
function trustOrThrow(file: string, stat: Stats): void {
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw corrupt(file, `is owned by uid ${stat.uid}, not by this user (uid ${uid})`);
  if (stat.mode & 0o022) throw corrupt(file, `is writable by other users (mode ${(stat.mode & 0o777).toString(8)})`);
}

export function readRegistryFile<T>(file: string, entry: z.ZodType<T>): T[] {
  let text: string;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      trustOrThrow(file, fstatSync(fd));
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (cause) {
    if (cause instanceof SandboxError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    if (code === 'ELOOP') throw corrupt(file, 'is a symbolic link; the registry is only read from a regular file', cause);
    throw corrupt(file, `cannot be read (${code ?? (cause as Error).message})`, cause);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    // The parser's message would quote the file (session keys), and this error may reach a tool's caller.
    throw corrupt(file, 'is not valid JSON', cause);
  }
  const entries = (data as { entries?: unknown })?.entries;
  if (!Array.isArray(entries)) throw corrupt(file, 'has no "entries" list');
  return entries.map((raw, i) => {
    const parsed = entry.safeParse(raw);
    if (!parsed.success) throw corrupt(file, `has an invalid entry at entries[${i}] (${parsed.error.issues[0]?.message})`);
    return parsed.data;
  });
}

export function writeRegistryFile(file: string, entries: readonly unknown[]): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    try {
      writeSync(fd, `${JSON.stringify({ entries }, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (error) {
    try { unlinkSync(tmp); } catch { /* already renamed or gone */ }
    throw error;
  }
}
