/**
 * Scans one skill directory: SKILL.md and shell scripts with the text rules, JS/TS sources with
 * the source rules, every scanned file for literal credentials. At most 500 files of at most
 * 1 MiB each; hidden directories and node_modules are skipped; a file that cannot be read is
 * an `info` finding, never a crash. Results are cached per file identity.
 */
import { extname, join, relative, sep } from 'node:path';
import { isGone, nodeSkillFs, readExactly, type SkillFs } from '../skill-fs.js';
import { capFindings, runLineRules, type SkillFinding } from './findings.js';
import { ScanCache } from './scan-cache.js';
import { SOURCE_EXTENSIONS, scanSource } from './source-rules.js';
import { LITERAL_SECRET_RULE, WORKSHOP_RULES, scanSkillText } from './text-rules.js';

export interface ScanOptions {
  maxFiles?: number;
  maxFileBytes?: number;
  fs?: SkillFs;
  cache?: ScanCache;
  /** Also apply the workshop's prompt-injection rules to SKILL.md and PROPOSAL.md. */
  workshop?: boolean;
}

export const DEFAULT_SCAN_MAX_FILES = 500;
export const DEFAULT_SCAN_MAX_FILE_BYTES = 1024 * 1024;

const SHELL_EXTENSIONS = new Set(['.sh', '.bash', '.zsh']);
const TEXT_EXTENSIONS = new Set(['.md', '.txt', '.json', '.yaml', '.yml', '.toml', '.env', '.ini', '.cfg', '.conf', '.py', '.rb', '.pl', '.ps1']);

type Kind = 'skill' | 'shell' | 'source' | 'text';

function kindOf(rel: string): Kind | undefined {
  if (rel === 'SKILL.md' || rel === 'PROPOSAL.md') return 'skill';
  const ext = extname(rel).toLowerCase();
  if (SHELL_EXTENSIONS.has(ext)) return 'shell';
  if ((SOURCE_EXTENSIONS as readonly string[]).includes(ext)) return 'source';
  return TEXT_EXTENSIONS.has(ext) ? 'text' : undefined;
}

function scanText(kind: Kind, text: string, rel: string, workshop: boolean): SkillFinding[] {
  if (kind === 'skill') return scanSkillText(text, rel, workshop ? WORKSHOP_RULES : []);
  if (kind === 'shell') return scanSkillText(text, rel);
  if (kind === 'source') return scanSource(text, rel);
  return capFindings(runLineRules([LITERAL_SECRET_RULE], rel, text.split(/\r?\n/)));
}

// A file left unscanned is a warning, not silence: padding a script past the limit must show.
const info = (file: string, message: string): SkillFinding => ({ ruleId: 'scan-skipped', severity: 'warn', file, line: 0, message, evidence: '' });

async function scanFile(fs: SkillFs, cache: ScanCache, file: { path: string; rel: string; kind: Kind }, maxBytes: number, workshop: boolean): Promise<SkillFinding[]> {
  const { path, rel, kind } = file;
  const tag = workshop ? 'workshop' : 'skill';
  let named;
  try {
    named = await fs.lstat(path);
  } catch (error) {
    return isGone(error) ? [] : [info(rel, `not scanned: ${(error as Error).message}`)];
  }
  if (!named.isFile()) return [];
  if (named.size > maxBytes) return [info(rel, `not scanned: ${named.size} bytes is over the ${maxBytes}-byte scan limit`)];
  // A cache hit needs one lstat: the same identity (device, inode, size, times) is the same content.
  const cached = cache.get(`${tag}:${ScanCache.keyOf(path, named)}`);
  if (cached) return cached;
  let handle;
  try {
    handle = await fs.openNoFollow(path);
  } catch (error) {
    return isGone(error) ? [] : [info(rel, `not scanned: ${(error as Error).message}`)];
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return [];
    if (stat.size > maxBytes) return [info(rel, `not scanned: ${stat.size} bytes is over the ${maxBytes}-byte scan limit`)];
    const bytes = await readExactly(handle, stat.size);
    if (bytes === null) return [info(rel, 'not scanned: the file grew while it was read')];
    const findings = scanText(kind, bytes.toString('utf8'), rel, workshop);
    // Cached under the identity of what was read (the opened file's), not of what was named.
    cache.set(`${tag}:${ScanCache.keyOf(path, stat)}`, findings);
    return findings;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Finds scannable files under `dir` (regular files only; symlinks are not followed). */
async function listFiles(fs: SkillFs, dir: string, maxFiles: number): Promise<{ files: { path: string; rel: string; kind: Kind }[]; truncated: boolean }> {
  const files: { path: string; rel: string; kind: Kind }[] = [];
  const queue = [dir];
  while (queue.length > 0) {
    const current = queue.shift()!;
    let entries;
    try {
      entries = await fs.readdir(current);
    } catch {
      continue; // vanished or unreadable: nothing to scan there
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') queue.push(path);
        continue;
      }
      if (!entry.isFile()) continue;
      const rel = relative(dir, path).split(sep).join('/');
      const kind = kindOf(rel);
      if (!kind) continue;
      if (files.length >= maxFiles) return { files, truncated: true };
      files.push({ path, rel, kind });
    }
  }
  return { files, truncated: false };
}

export async function scanSkillDirectory(dir: string, options: ScanOptions = {}): Promise<SkillFinding[]> {
  const fs = options.fs ?? nodeSkillFs;
  const cache = options.cache ?? new ScanCache();
  const maxFiles = options.maxFiles ?? DEFAULT_SCAN_MAX_FILES;
  const { files, truncated } = await listFiles(fs, dir, maxFiles);
  const findings: SkillFinding[] = [];
  for (const file of files) findings.push(...(await scanFile(fs, cache, file, options.maxFileBytes ?? DEFAULT_SCAN_MAX_FILE_BYTES, options.workshop === true)));
  if (truncated) findings.push(info('.', `only the first ${maxFiles} files were scanned`));
  return findings;
}
