import { execFileSync } from 'node:child_process';
import { SandboxError } from '../../../../sdk/sandbox/errors.js';
import type { SshSyncSettings } from '../settings.js';

/** Decides which workspace-relative paths the sync leaves alone, in both directions. */
export interface ExcludeFilter {
  /** True for an excluded path, or one inside an excluded directory. */
  excludes(path: string, isDirectory: boolean): boolean;
  /** Names excluded wherever they occur, which the remote listing can skip itself. */
  readonly prunableNames: readonly string[];
}

interface Rule {
  regex: RegExp;
  /** Tested against the whole relative path (else against the last name only). */
  anchored: boolean;
  directoryOnly: boolean;
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      out += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}

function compile(pattern: string): Rule {
  const directoryOnly = pattern.endsWith('/');
  const trimmed = pattern.replace(/\/+$/, '');
  const anchored = trimmed.includes('/');
  return { regex: new RegExp(`^${globToRegex(trimmed.replace(/^\/+/, ''))}$`), anchored, directoryOnly };
}

/** Untracked paths `git` ignores in `dir` (directories end with `/`). */
function gitIgnored(dir: string): string[] {
  try {
    const out = execFileSync('git', ['-C', dir, 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
    return out.toString('utf8').split('\0').filter(Boolean);
  } catch (cause) {
    throw new SandboxError('CONFIG_INVALID', `sandbox.ssh.sync.gitignore is on, but git cannot list what ${dir} ignores (not a git work tree, or git missing): ${(cause as Error).message.split('\n')[0]}`, { cause });
  }
}

/**
 * The exclude filter of one synced directory: the configured patterns, `.git` unless
 * `sync.git`, and with `sync.gitignore` what the host's git ignores there (asked afresh on
 * each call, since new build output appears all the time).
 */
export function excludeFilter(settings: SshSyncSettings, dir?: string): ExcludeFilter {
  const patterns = [...settings.exclude, ...(settings.git ? [] : ['.git'])];
  const rules = patterns.map(compile);
  const ignored = settings.gitignore && dir ? gitIgnored(dir) : [];
  const ignoredFiles = new Set(ignored.filter((p) => !p.endsWith('/')));
  const ignoredDirs = new Set(ignored.filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1)));
  const matchesItself = (path: string, isDirectory: boolean): boolean => {
    if (ignoredFiles.has(path) || ignoredDirs.has(path)) return true;
    const name = path.slice(path.lastIndexOf('/') + 1);
    return rules.some((r) => (!r.directoryOnly || isDirectory) && r.regex.test(r.anchored ? path : name));
  };
  return {
    excludes(path, isDirectory) {
      let at = path.indexOf('/');
      while (at !== -1) {
        if (matchesItself(path.slice(0, at), true)) return true;
        at = path.indexOf('/', at + 1);
      }
      return matchesItself(path, isDirectory);
    },
    prunableNames: patterns.filter((p) => /^[A-Za-z0-9._-]+$/.test(p)),
  };
}

/** Which of `paths` (not on the host yet) the host's `.gitignore` files would ignore. */
export function gitIgnoredAmong(dir: string, paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set();
  try {
    const out = execFileSync('git', ['-C', dir, 'check-ignore', '-z', '--stdin', '--no-index'], { input: paths.join('\0'), maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
    return new Set(out.toString('utf8').split('\0').filter(Boolean));
  } catch (error) {
    // Exit status 1: none of them is ignored.
    if ((error as { status?: number }).status === 1) return new Set();
    throw new SandboxError('SYNC_FAILED', `git check-ignore failed in ${dir}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}
