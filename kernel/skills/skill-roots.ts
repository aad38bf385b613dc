/**
 * The host directories skills may be read from outside a workspace (extra dirs, the skills
 * plugin's managed and personal dirs): a confined backend plugin gets them read-only as
 * `${skillRoots}`, so the read-only skill mounts a local session reads exist in its namespace
 * (a private `/tmp`, or a hidden home, would otherwise hide them).
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { PincerConfig } from '../config/schema.js';

export function skillRootsOf(config: PincerConfig, cwd: string): string[] {
  const settings = (config.plugins ?? []).find((p) => p.id === 'skills')?.settings as { managedDir?: unknown; personalDir?: unknown } | undefined;
  const dir = (value: unknown, fallback: string) => (typeof value === 'string' && isAbsolute(value) ? value : fallback);
  return [
    ...(config.skills?.load?.extraDirs ?? []).map((path) => resolve(cwd, path)),
    dir(settings?.managedDir, join(homedir(), '.pincer', 'skills')),
    dir(settings?.personalDir, join(homedir(), '.agents', 'skills')),
  ];
}
