import path from 'node:path';

/**
 * Path syntax is decided by the declared ROOT, never by the host OS: a POSIX
 * root (`/workspace`) treats a backslash as an ordinary filename character, a
 * Windows drive (`C:\`) or UNC (`\\server\share`) root compares case-insensitively
 * and keeps the caller's spelling of file names.
 */
export type RootSyntax = 'posix' | 'windows';

export function rootSyntaxOf(root: string): RootSyntax | null {
  if (root.startsWith('/')) return 'posix';
  if (!path.win32.isAbsolute(root)) return null;
  // A rootless `\dir` is "absolute" to win32 but names no drive or share: refuse it.
  return path.win32.parse(path.win32.normalize(root)).root === '\\' ? null : 'windows';
}

export function pathApiOf(syntax: RootSyntax): path.PlatformPath {
  return syntax === 'posix' ? path.posix : path.win32;
}

/** Strip the `\\?\` and `\\?\UNC\` long-path prefixes so both spellings of a path compare equal. */
function normalizeWindows(input: string): string {
  const normalized = path.win32.normalize(input);
  if (!normalized.startsWith('\\\\?\\')) return normalized;
  const rest = normalized.slice(4);
  return rest.toUpperCase().startsWith('UNC\\') ? `\\\\${rest.slice(4)}` : rest;
}

export function normalizeIn(syntax: RootSyntax, input: string): string {
  return syntax === 'posix' ? path.posix.normalize(input) : normalizeWindows(input);
}

/**
 * The path of `target` relative to `root` in the root's syntax ('' for the root
 * itself), or null when the target is outside the root, is not absolute in that
 * syntax, or the root is not a usable absolute root. Windows comparison is
 * case-insensitive (path.win32.relative folds case) and the result keeps the
 * target's case.
 */
export function relativeInsideRoot(root: string, target: string): string | null {
  const syntax = rootSyntaxOf(root);
  if (syntax === null) return null;
  const api = pathApiOf(syntax);
  const normalizedRoot = normalizeIn(syntax, root);
  const normalizedTarget = normalizeIn(syntax, target);
  if (!api.isAbsolute(normalizedTarget)) return null;
  if (syntax === 'windows' && rootSyntaxOf(normalizedTarget) !== 'windows') return null;
  const relative = api.relative(normalizedRoot, normalizedTarget);
  if (relative === '..' || relative.startsWith(`..${api.sep}`) || api.isAbsolute(relative)) return null;
  return relative;
}

/** Join a root and a relative path (in the root's syntax) back into one path. */
export function joinInRoot(root: string, relative: string): string {
  const syntax = rootSyntaxOf(root) ?? 'posix';
  const api = pathApiOf(syntax);
  return relative === '' ? normalizeIn(syntax, root) : api.join(normalizeIn(syntax, root), relative);
}

/** True when a path contains a `..` segment in the given syntax. */
export function hasParentSegment(input: string, syntax: RootSyntax): boolean {
  const parts = syntax === 'posix' ? input.split('/') : input.split(/[\\/]/);
  return parts.includes('..');
}
