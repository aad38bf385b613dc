/**
 * A run's skills, built from the catalog's in-memory lists and reused while nothing it depends
 * on changed: the source versions (workspace and global), the prompt format, and the run's
 * skill filter. Building one reads no file and sends no message.
 */
import type { PincerConfig } from '../config/schema.js';
import type { SessionPlacement } from '../workspace/router.js';
import type { SkillCatalog, SourceStatus } from './catalog.js';
import { ineligibility } from './eligibility.js';
import { locateSkill, workdirOf, type SkillMount } from './locations.js';
import { mergeSkills } from './merge.js';
import { DEFAULT_PROMPT_LIMITS, PROMPT_FORMAT_VERSION, byName, renderSkillsIndex } from './prompt.js';
import type { RunSkill, RunSkills, SkillExclusion } from './types.js';
import { shouldRefreshSnapshotForVersion } from './versions.js';

export interface SnapshotRun {
  agentId: string;
  enabledPlugins: readonly string[] | undefined;
  placement: SessionPlacement;
}

export interface SkillSnapshot extends RunSkills {
  /** Read-only mounts a local-backend session needs to read skills outside its workspace. */
  readonly mounts: readonly SkillMount[];
}

interface Cached {
  version: number;
  contributions: number;
  format: number;
  filter: string;
  snapshot: SkillSnapshot;
}

/** Why a source's list may not be current, for `warnings`. */
function problemOf(s: SourceStatus): string | undefined {
  const name = `skill source "${s.label}" (plugin ${s.pluginId})`;
  switch (s.state) {
    case 'failed':
      return `${name} failed to list: ${s.detail}`;
    case 'unlisted':
      return `${name} has not been listed yet; call kernel.skills.refresh()`;
    case 'stale':
      return `${name} changed (or its plugin restarted) and is being listed again`;
    case 'unwatched':
      return `${name} is not watched (${s.detail}); it is current only as of the last kernel.skills.refresh()`;
    default:
      return undefined;
  }
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const SNAPSHOT_CACHE_LIMIT = 256;

export class SkillSnapshots {
  readonly #cache = new Map<string, Cached>();
  /** Snapshots built (not reused), for tests and benchmarks. */
  builds = 0;

  constructor(
    private readonly catalog: SkillCatalog,
    private readonly config: PincerConfig,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
    private readonly platform: string = process.platform,
  ) {}

  #allowlist(agentId: string): readonly string[] | undefined {
    return this.config.agents?.list?.find((a) => a.id === agentId)?.skills ?? this.config.agents?.defaults?.skills;
  }

  get(run: SnapshotRun): SkillSnapshot {
    const workspace = run.placement.workspaceDir ?? '';
    const key = JSON.stringify([run.agentId, workspace, run.placement.backendId, workdirOf(run.placement), run.enabledPlugins ?? null]);
    const filter = JSON.stringify([this.#allowlist(run.agentId) ?? null, this.config.skills?.entries ?? null]);
    const version = this.catalog.versions.get(workspace);
    const contributions = this.catalog.contributionsVersion;
    const cached = this.#cache.get(key);
    const reusable = cached && cached.format === PROMPT_FORMAT_VERSION && cached.filter === filter && cached.contributions === contributions;
    if (reusable && !shouldRefreshSnapshotForVersion(cached.version, version)) return cached.snapshot;
    const snapshot = this.#build(run, workspace, version);
    if (!cached && this.#cache.size >= SNAPSHOT_CACHE_LIMIT) this.#cache.delete(this.#cache.keys().next().value as string);
    this.#cache.set(key, { version, contributions, format: PROMPT_FORMAT_VERSION, filter, snapshot });
    return snapshot;
  }

  #build(run: SnapshotRun, workspace: string, version: number): SkillSnapshot {
    this.builds += 1;
    const view = this.catalog.view(run.enabledPlugins, workspace);
    const merged = mergeSkills(view.sources);
    const excluded: SkillExclusion[] = [...merged.excluded];
    const skills: RunSkill[] = [];
    const mounts: SkillMount[] = [];
    const taken = new Set<string>();
    const ctx = { agentId: run.agentId, allowlist: this.#allowlist(run.agentId), config: this.config, env: this.env, platform: this.platform };
    for (const skill of [...merged.skills].sort((a, b) => byName(a.name, b.name))) {
      const reasons = ineligibility(skill, ctx);
      if (reasons.length > 0) {
        excluded.push({ name: skill.name, source: skill.source, path: skill.dir, reason: 'ineligible', detail: reasons.join('; ') });
        continue;
      }
      const at = locateSkill(skill, run.placement, run.placement.backendId !== 'local', this.catalog.canonicalWorkspace(workspace), taken);
      if ('excluded' in at) {
        excluded.push({ name: skill.name, source: skill.source, path: skill.dir, reason: 'outside-sandbox', detail: at.excluded });
        continue;
      }
      if (at.mount) mounts.push(at.mount);
      skills.push({
        name: skill.name,
        description: (skill.description ?? '').replace(CONTROL, ' '),
        location: at.location,
        version: skill.version,
        source: skill.source,
        modelInvocable: skill.disableModelInvocation !== true,
        userInvocable: skill.userInvocable !== false,
        ...(skill.command ? { commandTool: skill.command.tool } : {}),
        ...(skill.findings?.length ? { findings: skill.findings } : {}),
        ...(skill.warnings?.length ? { warnings: skill.warnings } : {}),
      });
    }
    const limits = this.config.skills?.limits;
    const index = renderSkillsIndex(
      skills.filter((s) => s.modelInvocable),
      { maxSkills: limits?.maxSkillsInPrompt ?? DEFAULT_PROMPT_LIMITS.maxSkills, maxChars: limits?.maxSkillsPromptChars ?? DEFAULT_PROMPT_LIMITS.maxChars },
    );
    const problems = view.status.flatMap((s) => problemOf(s) ?? []);
    return Object.freeze({
      prompt: index.text,
      skills: Object.freeze(skills),
      excluded: Object.freeze(excluded),
      collisions: Object.freeze(merged.collisions),
      version,
      current: problems.length === 0,
      sources: Object.freeze(view.status),
      warnings: Object.freeze([...problems, ...(index.warning ? [index.warning] : [])]),
      mounts: Object.freeze(mounts),
    });
  }
}
