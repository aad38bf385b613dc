/**
 * The bearer token of `pincer serve --http/--socket`: 32 random bytes, or the one kept in
 * `--token-file` (created owner-only on first start and reused, so a client's config stays valid
 * across restarts). A token file others can read, or one another user owns, is refused.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { CliError } from '../errors.js';

/** Shorter tokens are refused in a token file: 32 characters of base64url is 192 bits. */
const MIN_TOKEN_CHARS = 32;

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Reads the token in `file`, or creates the file (mode 0600, never over an existing one) with a new token. */
export function loadOrCreateTokenFile(file: string): { token: string; created: boolean } {
  const token = generateToken();
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') return { token: readTokenFile(file), created: false };
    throw tokenFileError(file, `cannot create it: ${(cause as Error).message}`);
  }
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return { token, created: true };
}

/** Checks and reads through one descriptor opened without following a symlink, so nothing can be swapped in between. */
function readTokenFile(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (cause) {
    throw tokenFileError(file, (cause as NodeJS.ErrnoException).code === 'ELOOP' ? 'it is a symbolic link' : `cannot open it: ${(cause as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw tokenFileError(file, 'it is not a regular file');
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) throw tokenFileError(file, `it belongs to uid ${stat.uid}, not to this user`);
    if ((stat.mode & 0o077) !== 0) throw tokenFileError(file, `others may read it (mode ${(stat.mode & 0o777).toString(8)}); run chmod 600 on it`);
    const token = readFileSync(fd, 'utf8').trim();
    if (token.length < MIN_TOKEN_CHARS || /\s/.test(token)) throw tokenFileError(file, `it must hold one token of at least ${MIN_TOKEN_CHARS} characters without spaces`);
    return token;
  } finally {
    closeSync(fd);
  }
}

function tokenFileError(file: string, why: string): CliError {
  return new CliError('USAGE', `--token-file ${file}: ${why}`, { hint: 'Point --token-file at a file of your own with mode 600, or at a path that does not exist yet (it is created).' });
}
