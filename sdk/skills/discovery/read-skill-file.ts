/**
 * Reads a skill's SKILL.md through a root-bounded open: the file (after any symlink hops) must
 * stay inside the skill directory, the opened descriptor must be that file, and it must be a
 * regular UTF-8 text file no larger than the cap. Its content version is `sha256:` + 16 hex.
 */
import { createHash } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isInside } from './containment.js';
import { isGone, readExactly, type SkillFs } from '../skill-fs.js';

export const SKILL_FILE = 'SKILL.md';

export type SkillFileResult =
  | { ok: true; file: string; text: string; version: string }
  | { ok: false; reason: 'vanished' | 'symlink-escape' | 'not-a-file' | 'file-too-large' | 'binary-file' | 'unreadable'; detail: string };

export function contentVersion(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;
}

/** Where an open descriptor really points (Linux); null elsewhere. */
function fdTarget(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

export async function readSkillFile(fs: SkillFs, skillDir: string, maxBytes: number): Promise<SkillFileResult> {
  const named = join(skillDir, SKILL_FILE);
  let real: string;
  try {
    real = await fs.realpath(named);
  } catch (error) {
    return isGone(error) ? { ok: false, reason: 'vanished', detail: 'SKILL.md disappeared during the scan' } : { ok: false, reason: 'unreadable', detail: `SKILL.md cannot be resolved: ${(error as Error).message}` };
  }
  if (!isInside(skillDir, real)) return { ok: false, reason: 'symlink-escape', detail: `SKILL.md resolves outside its skill directory (${real})` };
  let handle;
  try {
    handle = await fs.openNoFollow(real);
  } catch (error) {
    return isGone(error) ? { ok: false, reason: 'vanished', detail: 'SKILL.md disappeared during the scan' } : { ok: false, reason: 'unreadable', detail: `SKILL.md cannot be opened: ${(error as Error).message}` };
  }
  try {
    const opened = await handle.stat();
    const target = fdTarget(handle.fd);
    if (target !== null && !isInside(skillDir, target)) return { ok: false, reason: 'symlink-escape', detail: `SKILL.md was swapped for a file outside its skill directory (${target})` };
    if (!opened.isFile()) return { ok: false, reason: 'not-a-file', detail: 'SKILL.md is not a regular file' };
    if (opened.size > maxBytes) return { ok: false, reason: 'file-too-large', detail: `SKILL.md is ${opened.size} bytes; the limit is ${maxBytes} (skills.limits.maxSkillFileBytes)` };
    const bytes = await readExactly(handle, opened.size);
    if (bytes === null) return { ok: false, reason: 'unreadable', detail: 'SKILL.md grew while it was read (it is being written; the next scan will see it)' };
    if (bytes.includes(0)) return { ok: false, reason: 'binary-file', detail: 'SKILL.md contains NUL bytes (binary)' };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, reason: 'binary-file', detail: 'SKILL.md is not valid UTF-8' };
    }
    return { ok: true, file: real, text, version: contentVersion(bytes) };
  } catch (error) {
    return isGone(error) ? { ok: false, reason: 'vanished', detail: 'SKILL.md disappeared during the scan' } : { ok: false, reason: 'unreadable', detail: `SKILL.md cannot be read: ${(error as Error).message}` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
