/**
 * Skill directories in each agent workspace (`skills/`, `.agents/skills/`), when they exist: a
 * real directory inside the workspace, and each skill a folder with a SKILL.md that opens with
 * frontmatter naming it and saying what it does.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { line, type DoctorLine } from './types.js';

const CANDIDATES = ['skills', '.agents/skills'];

/** The first 64 KiB of a regular file; a FIFO or device (an agent can make one) is never opened. */
function head(file: string): string | undefined {
  // Non-blocking open, then the type of what was opened: a FIFO swapped in after a check cannot hang us.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(64 * 1024);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function frontmatterProblem(file: string): string | undefined {
  const text = head(file);
  if (text === undefined) return 'is not a regular file';
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!match) return 'has no frontmatter (a --- block at the top)';
  const missing = ['name', 'description'].filter((key) => !new RegExp(`^${key}\\s*:\\s*\\S`, 'm').test(match[1]!));
  return missing.length ? `frontmatter lacks ${missing.join(' and ')}` : undefined;
}

function checkDir(workspace: string, dir: string): DoctorLine[] {
  const subject = dir;
  const path = join(workspace, dir);
  if (lstatSync(path).isSymbolicLink()) {
    const target = realpathSync(path);
    const rel = relative(realpathSync(workspace), target);
    if (rel.startsWith('..') || isAbsolute(rel)) return [line('skills', subject, 'warn', `${path} links outside the workspace (${target}); sandboxes do not mount it`, 'move the skills into the workspace')];
  }
  const problems: DoctorLine[] = [];
  let count = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const file = join(path, entry.name, 'SKILL.md');
    if (!existsSync(file)) {
      problems.push(line('skills', `${dir}/${entry.name}`, 'warn', 'has no SKILL.md, so it is not a skill', 'add SKILL.md with name and description frontmatter, or move the folder out'));
      continue;
    }
    const problem = frontmatterProblem(file);
    if (problem) problems.push(line('skills', `${dir}/${entry.name}`, 'warn', `SKILL.md ${problem}`, 'start SKILL.md with ---, name: ..., description: ..., ---'));
    else count += 1;
  }
  return [line('skills', subject, 'ok', `${path}: ${count} skill(s)`), ...problems];
}

function checkDirSafely(workspace: string, dir: string): DoctorLine[] {
  try {
    if (!statSync(join(workspace, dir)).isDirectory()) return [line('skills', dir, 'warn', `${join(workspace, dir)} is not a folder`, 'remove it or make it the skills folder')];
    return checkDir(workspace, dir);
  } catch (error) {
    return [line('skills', dir, 'warn', `cannot read ${join(workspace, dir)}: ${(error as Error).message}`, 'check its permissions')];
  }
}

export function checkSkillDirs(workspaces: readonly string[]): DoctorLine[] {
  const lines = [...new Set(workspaces)].flatMap((workspace) => CANDIDATES.filter((dir) => existsSync(join(workspace, dir))).flatMap((dir) => checkDirSafely(workspace, dir)));
  return lines.length ? lines : [line('skills', 'directories', 'skip', `no skills/ or .agents/skills/ in ${workspaces.join(', ') || 'any workspace'}`)];
}
