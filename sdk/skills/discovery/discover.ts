/**
 * Finds skill directories (those holding a SKILL.md) under one root: breadth first, so grouped
 * skills (`root/group/skill`) are found down to the depth limit, dot-directories and
 * node_modules skipped, symlinks judged by the source's containment policy, each real
 * directory visited once (a symlink loop ends there), and every limit reported as a skip.
 */
import { basename, join } from 'node:path';
import type { SkillSkip } from '../../../protocol/index.js';
import { directoryEntryBudget, type SkillDiscoveryLimits } from '../limits.js';
import { isGone, type SkillFs } from '../skill-fs.js';
import { escapeOf, type ContainmentPolicy } from './containment.js';
import { SKILL_FILE } from './read-skill-file.js';

export interface SkillCandidate {
  /** Canonical directory. */
  dir: string;
  /** The directory's own name (the default skill name). */
  name: string;
}

export interface DiscoveryResult {
  candidates: SkillCandidate[];
  skipped: SkillSkip[];
  /** The root's canonical path, when it exists. */
  rootReal?: string;
}

const skip = (path: string, reason: string, detail: string): SkillSkip => ({ path, reason, detail });

async function hasSkillFile(fs: SkillFs, dir: string): Promise<boolean> {
  try {
    await fs.lstat(join(dir, SKILL_FILE));
    return true;
  } catch {
    return false;
  }
}

async function directoryOrGone(fs: SkillFs, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isDirectory();
  } catch {
    return false;
  }
}

export async function discoverCandidates(fs: SkillFs, root: string, policy: ContainmentPolicy, limits: SkillDiscoveryLimits, maxDepth = limits.maxDepth): Promise<DiscoveryResult> {
  let rootReal: string;
  try {
    rootReal = await fs.realpath(root);
  } catch (error) {
    // A root that does not exist (yet) is normal: nothing to list, nothing to report.
    if (isGone(error)) return { candidates: [], skipped: [] };
    return { candidates: [], skipped: [skip(root, 'unreadable', `the skills root cannot be resolved: ${(error as Error).message}`)] };
  }
  if (!(await directoryOrGone(fs, rootReal))) return { candidates: [], skipped: [skip(root, 'not-a-directory', 'the skills root is not a directory')] };
  if (await hasSkillFile(fs, rootReal)) return { candidates: [{ dir: rootReal, name: basename(rootReal) }], skipped: [], rootReal };

  const candidates: SkillCandidate[] = [];
  const skipped: SkillSkip[] = [];
  const visited = new Set([rootReal]);
  const budget = directoryEntryBudget(limits);
  let overLimit = 0;
  const queue: { dir: string; depth: number }[] = [{ dir: rootReal, depth: 0 }];
  while (queue.length > 0) {
    const { dir, depth } = queue.shift()!;
    let entries;
    try {
      entries = await fs.readdir(dir);
    } catch (error) {
      skipped.push(skip(dir, isGone(error) ? 'vanished' : 'unreadable', isGone(error) ? 'the directory disappeared during the scan' : `the directory cannot be read: ${(error as Error).message}`));
      continue;
    }
    if (entries.length > budget) skipped.push(skip(dir, 'entry-budget', `only the first ${budget} of ${entries.length} entries were examined`));
    const examined = entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, budget);
    for (const entry of examined) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const viaSymlink = entry.isSymbolicLink();
      if (!entry.isDirectory() && !viaSymlink) continue;
      const path = join(dir, entry.name);
      let real: string;
      try {
        real = await fs.realpath(path);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ELOOP') skipped.push(skip(path, 'symlink-loop', 'the symlink resolves in a loop'));
        else if (!isGone(error)) skipped.push(skip(path, 'unreadable', `cannot be resolved: ${(error as Error).message}`));
        continue;
      }
      if (!(await directoryOrGone(fs, real))) continue;
      const escape = escapeOf(policy, rootReal, real, viaSymlink);
      if (escape) {
        skipped.push(skip(path, escape.reason, escape.detail));
        continue;
      }
      if (visited.has(real)) {
        if (viaSymlink) skipped.push(skip(path, 'symlink-loop', `the symlink leads back to ${real}, which is already scanned`));
        continue;
      }
      visited.add(real);
      if (await hasSkillFile(fs, real)) {
        if (candidates.length < limits.maxCandidatesPerRoot) candidates.push({ dir: real, name: entry.name });
        else overLimit += 1;
      } else if (depth + 1 < maxDepth) queue.push({ dir: real, depth: depth + 1 });
    }
  }
  if (overLimit > 0) skipped.push(skip(root, 'candidate-limit', `${overLimit} more skill directories were not loaded (skills.limits.maxCandidatesPerRoot = ${limits.maxCandidatesPerRoot})`));
  return { candidates, skipped, rootReal };
}
