/**
 * Skills, as ratios within one run:
 * - the prompt index for 500 skills (over budget: the compact fallback's two binary searches),
 *   against JSON.stringify of the same list;
 * - a run's skills from an unchanged snapshot (what every assembly pays) against a rebuild
 *   from the in-memory lists and against a full rescan of 200 skills on disk;
 * - scanning 1,000 files cold against the identity cache.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/skills.bench.js`.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SkillsListChangedParams, SkillsListParams, SkillsListResult } from '../protocol/index.js';
import type { PluginHost } from '../kernel/host/index.js';
import { SkillCatalog } from '../kernel/skills/catalog.js';
import { renderSkillsIndex, type PromptSkill } from '../kernel/skills/prompt.js';
import { SkillSnapshots } from '../kernel/skills/snapshot.js';
import { DEFAULT_SKILL_LIMITS, ScanCache, loadSkillSource, nodeSkillFs, scanSkillDirectory } from '../sdk/skills/index.js';
import { measure, printTable, ratio } from './lib/measure.js';

const skillText = (i: number) => `---\nname: skill-${i}\ndescription: Handles the ${i}th kind of task, with enough words to look like a real description of a skill.\n---\n# Skill ${i}\n\nSteps.\n`;

async function writeSkills(dir: string, count: number, extraFiles = 0): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const skill = path.join(dir, `skill-${i}`);
    await fs.mkdir(path.join(skill, 'scripts'), { recursive: true });
    await fs.writeFile(path.join(skill, 'SKILL.md'), skillText(i));
    for (let f = 0; f < extraFiles; f += 1) await fs.writeFile(path.join(skill, 'scripts', `step${f}.mjs`), `import { readFileSync } from 'node:fs';\nconsole.log(readFileSync(process.argv[2], 'utf8').length + ${f});\n`);
  }
}

/** A host holding one workspace source whose list is fixed: the kernel side only. */
function staticHost(result: SkillsListResult): PluginHost {
  return {
    contributionsVersion: 1,
    contributions: () => [{ pluginId: 'skills', state: 'ready', required: false, contributes: { tools: [], sandboxBackends: [], hooks: [], skillSources: [{ label: 'pincer-workspace', rank: 600, scope: 'workspace' }] } }],
    listSkills: async (_id: string, _p: SkillsListParams) => result,
    pluginStatus: () => ({ pid: 1, state: 'ready' }),
    onSkillsChanged: (_l: (id: string, c: SkillsListChangedParams) => void) => () => undefined,
    onDidChange: () => () => undefined,
  } as unknown as PluginHost;
}

export async function runSkillsBench(options: { timeMs?: number } = {}) {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-skills-bench-')));
  try {
    const prompt: PromptSkill[] = Array.from({ length: 500 }, (_, i) => ({ name: `skill-${i}`, description: `Handles the ${i}th kind of task, with enough words to look like a real description.`, location: `/workspace/skills/skill-${i}/SKILL.md`, version: 'sha256:0123456789abcdef' }));
    const index = await measure(
      {
        'JSON.stringify 500 skills': () => JSON.stringify(prompt),
        'index of 500 skills (compact fallback)': () => renderSkillsIndex(prompt),
        'index of 50 skills (full format, fits)': () => renderSkillsIndex(prompt.slice(0, 50)),
      },
      options,
    );

    const skillsDir = path.join(dir, 'ws', 'skills');
    await writeSkills(skillsDir, 200, 2);
    const policy = { contained: true, allowedTargets: [], bundled: false };
    const sharedCache = new ScanCache();
    const rescan = () => loadSkillSource([{ path: skillsDir }], { fs: nodeSkillFs, limits: DEFAULT_SKILL_LIMITS, policy, blockCritical: true, scanCache: sharedCache });
    const loaded = await rescan();
    const catalog = new SkillCatalog(staticHost({ version: 'v1', skills: loaded.skills, skipped: loaded.skipped, watch: 'native' }), {}, () => undefined);
    const workspaceDir = path.join(dir, 'ws');
    await catalog.refresh([{ plugins: undefined, workspaceDir }]);
    const snapshots = new SkillSnapshots(catalog, {});
    const run = { agentId: 'main', enabledPlugins: undefined, placement: { agentId: 'main', backendId: 'local', workspaceDir } };
    const snapshot = await measure(
      {
        'unchanged snapshot (per assembly)': () => snapshots.get(run),
        'rebuilt snapshot (version moved)': () => (catalog.versions.bump(workspaceDir), snapshots.get(run)),
        'full rescan of 200 skills + rebuild': async () => (await rescan(), catalog.versions.bump(workspaceDir), snapshots.get(run)),
      },
      options,
    );

    const scanDir = path.join(dir, 'scan');
    await writeSkills(scanDir, 1, 999);
    const warm = new ScanCache();
    await scanSkillDirectory(path.join(scanDir, 'skill-0'), { cache: warm, maxFiles: 1000 });
    const scan = await measure(
      {
        'scan 1,000 files, cold': () => scanSkillDirectory(path.join(scanDir, 'skill-0'), { cache: new ScanCache(), maxFiles: 1000 }),
        'scan 1,000 files, cached by identity': () => scanSkillDirectory(path.join(scanDir, 'skill-0'), { cache: warm, maxFiles: 1000 }),
      },
      options,
    );

    const medians = Object.fromEntries([...Object.values(index), ...Object.values(snapshot), ...Object.values(scan)].map((m) => [m.name, Math.round(m.medianUs * 10) / 10]));
    return {
      unit: 'µs (median latency)',
      medians,
      ratios: {
        'index 500 / JSON.stringify 500': ratio(index['index of 500 skills (compact fallback)']!, index['JSON.stringify 500 skills']!),
        'rebuilt / unchanged snapshot': ratio(snapshot['rebuilt snapshot (version moved)']!, snapshot['unchanged snapshot (per assembly)']!),
        'full rescan / unchanged snapshot': ratio(snapshot['full rescan of 200 skills + rebuild']!, snapshot['unchanged snapshot (per assembly)']!),
        'cold / cached scan of 1,000 files': ratio(scan['scan 1,000 files, cold']!, scan['scan 1,000 files, cached by identity']!),
      },
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runSkillsBench();
  printTable('skills (median µs)', Object.entries(report.medians).map(([task, us]) => ({ task, 'median (µs)': us })));
  printTable('ratios', Object.entries(report.ratios).map(([what, x]) => ({ what, x })));
}
