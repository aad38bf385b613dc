/**
 * Loads one skill source: discovers candidates under each root, reads and parses each SKILL.md,
 * scans the skill's files, and lists the skills with everything that was skipped and why. The
 * list's version is a digest of what it says, so an unchanged rescan keeps its version.
 */
import { createHash } from 'node:crypto';
import { delimiter, join } from 'node:path';
import type { SkillEntry, SkillSkip } from '../../protocol/index.js';
import { discoverCandidates } from './discovery/discover.js';
import type { ContainmentPolicy } from './discovery/containment.js';
import { readSkillFile } from './discovery/read-skill-file.js';
import { readSkillFields } from './frontmatter/fields.js';
import { parseFrontmatter } from './frontmatter/parse.js';
import type { SkillDiscoveryLimits } from './limits.js';
import { hasCritical } from './scanner/findings.js';
import type { ScanCache } from './scanner/scan-cache.js';
import { scanSkillDirectory } from './scanner/scan-directory.js';
import type { SkillFs } from './skill-fs.js';

export interface SourceRoot {
  path: string;
  /** Directory levels searched (default: limits.maxDepth). */
  maxDepth?: number;
}

export interface LoadSourceOptions {
  fs: SkillFs;
  limits: SkillDiscoveryLimits;
  policy: ContainmentPolicy;
  /** Skills with a critical scanner finding are skipped instead of listed. */
  blockCritical: boolean;
  scanCache: ScanCache;
  /** PATH to probe required binaries on; undefined = do not probe. */
  path?: string;
}

export interface LoadedSource {
  skills: SkillEntry[];
  skipped: SkillSkip[];
}

const skip = (path: string, reason: string, detail: string, extra: Partial<SkillSkip> = {}): SkillSkip => ({ path, reason, detail, ...extra });

/** Which of `bins` (and `anyBins` groups, reported `a|b`) no PATH directory has as an executable. */
async function missingBins(fs: SkillFs, path: string, bins: readonly string[], anyBins: readonly string[], cache: Map<string, boolean>): Promise<string[]> {
  const dirs = path.split(delimiter).filter(Boolean);
  const found = async (bin: string): Promise<boolean> => {
    let known = cache.get(bin);
    if (known === undefined) {
      known = false;
      for (const dir of dirs) {
        // An executable regular file (a directory is "executable" too, and is not a binary).
        const stat = await fs.stat(join(dir, bin)).catch(() => undefined);
        if (stat?.isFile() && (stat.mode & 0o111) !== 0) {
          known = true;
          break;
        }
      }
      cache.set(bin, known);
    }
    return known;
  };
  const missing: string[] = [];
  for (const bin of bins) if (!(await found(bin))) missing.push(bin);
  if (anyBins.length > 0) {
    let any = false;
    for (const bin of anyBins) if ((any = await found(bin))) break;
    if (!any) missing.push(anyBins.join('|'));
  }
  return missing;
}

function describeFindings(findings: SkillEntry['findings'] = []): string {
  const critical = findings.filter((f) => f.severity === 'critical');
  const shown = critical.slice(0, 3).map((f) => `${f.ruleId} at ${f.file}:${f.line}`).join(', ');
  return `critical scanner finding${critical.length === 1 ? '' : 's'}: ${shown}${critical.length > 3 ? ` and ${critical.length - 3} more` : ''}`;
}

export async function loadSkillSource(roots: readonly SourceRoot[], options: LoadSourceOptions): Promise<LoadedSource> {
  const { fs, limits } = options;
  const skills: SkillEntry[] = [];
  const skipped: SkillSkip[] = [];
  const byName = new Map<string, string>();
  const bins = new Map<string, boolean>();
  for (const root of roots) {
    const found = await discoverCandidates(fs, root.path, options.policy, limits, root.maxDepth);
    skipped.push(...found.skipped);
    for (const candidate of found.candidates) {
      const file = await readSkillFile(fs, candidate.dir, limits.maxSkillFileBytes);
      if (!file.ok) {
        skipped.push(skip(candidate.dir, file.reason, file.detail));
        continue;
      }
      const parsed = parseFrontmatter(file.text);
      if (!parsed.ok) {
        skipped.push(skip(candidate.dir, 'invalid-frontmatter', `invalid frontmatter: ${parsed.code}: ${parsed.message}`));
        continue;
      }
      const read = readSkillFields(parsed.data, candidate.name);
      if (!read.ok) {
        skipped.push(skip(candidate.dir, read.reason, read.detail));
        continue;
      }
      const { warnings, ...fields } = read.fields;
      const earlier = byName.get(fields.name);
      if (earlier !== undefined) {
        skipped.push(skip(candidate.dir, 'duplicate-name', `another skill named "${fields.name}" in this source is listed from ${earlier}`, { name: fields.name }));
        continue;
      }
      const findings = await scanSkillDirectory(candidate.dir, { fs, cache: options.scanCache });
      if (options.blockCritical && hasCritical(findings)) {
        skipped.push(skip(candidate.dir, 'critical-finding', describeFindings(findings), { name: fields.name, findings }));
        continue;
      }
      if (skills.length >= limits.maxSkillsLoadedPerSource) {
        skipped.push(skip(candidate.dir, 'source-limit', `the source already lists ${limits.maxSkillsLoadedPerSource} skills (skills.limits.maxSkillsLoadedPerSource)`, { name: fields.name }));
        continue;
      }
      byName.set(fields.name, candidate.dir);
      const requires = fields.manifest?.requires;
      const missing = options.path !== undefined && requires ? await missingBins(fs, options.path, requires.bins, requires.anyBins, bins) : [];
      skills.push({
        ...fields,
        dir: candidate.dir,
        file: file.file,
        version: file.version,
        ...(missing.length > 0 ? { missingBins: missing } : {}),
        ...(findings.length > 0 ? { findings } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
      });
    }
  }
  return { skills, skipped };
}

/** A digest of a list: equal lists, equal versions. */
export function listVersion(parts: unknown): string {
  return `v1:${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16)}`;
}
