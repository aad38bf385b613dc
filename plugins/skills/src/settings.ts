/**
 * The `skills` plugin's settings (`plugins[].settings`, all optional): where the managed,
 * personal and bundled sources live (defaults `~/.pincer/skills`, `~/.agents/skills`, the
 * skills shipped with Pincer), and the cap on native watchers.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';

const AbsoluteDir = z.string().refine(isAbsolute, 'must be an absolute path');

export const SkillsPluginSettings = z.strictObject({
  managedDir: AbsoluteDir.optional(),
  personalDir: AbsoluteDir.optional(),
  bundledDir: AbsoluteDir.optional(),
  maxWatchers: z.number().int().positive().optional(),
});

export interface SkillDirectories {
  managed: string;
  personal: string;
  bundled: string;
  maxWatchers?: number;
}

/** The package root: this module runs from dist/plugins/skills/src or plugins/skills/src. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export function bundledSkillsDir(): string {
  return join(packageRoot(), 'plugins', 'skills', 'bundled');
}

export function resolveSkillDirectories(raw: Record<string, unknown>): SkillDirectories {
  const settings = SkillsPluginSettings.parse(raw);
  const home = process.env.HOME ?? homedir();
  return {
    managed: settings.managedDir ?? join(home, '.pincer', 'skills'),
    personal: settings.personalDir ?? join(home, '.agents', 'skills'),
    bundled: settings.bundledDir ?? bundledSkillsDir(),
    maxWatchers: settings.maxWatchers,
  };
}
