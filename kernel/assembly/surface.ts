/**
 * The tool surface of a set of enabled plugins: their contributed tools as the policy
 * pipeline sees them, frozen and cached until the host's contributions change, so the
 * pipeline's identity-keyed plans are reused from one assembly to the next.
 */
import { isKnownCoreToolId } from '../../protocol/vocabulary/index.js';
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import type { ContributedTool, PluginHost } from '../host/index.js';

/** A contributed tool with what policy needs: a core tool is "core" whichever plugin serves it. */
export interface SurfaceTool {
  readonly name: string;
  /** Plugin id for policy purposes: undefined for core-vocabulary tools. */
  readonly pluginId: string | undefined;
  readonly servedBy: string;
  readonly contribution: ContributedTool;
}

export interface ToolSurface {
  readonly tools: readonly SurfaceTool[];
  /** Tools dropped because an earlier plugin already contributed the name. */
  readonly shadowed: readonly { name: string; pluginId: string; keptFrom: string }[];
}

export class SurfaceCache {
  #version = -1;
  readonly #byPlugins = new Map<string, ToolSurface>();

  constructor(private readonly host: PluginHost) {}

  /** Surface for the enabled plugins (`undefined` = every plugin), cached per contributions version. */
  get(enabled: readonly string[] | undefined): ToolSurface {
    if (this.#version !== this.host.contributionsVersion) {
      this.#byPlugins.clear();
      this.#version = this.host.contributionsVersion;
    }
    const key = enabled ? enabled.join('\u0000') : '\u0001all';
    let surface = this.#byPlugins.get(key);
    if (!surface) this.#byPlugins.set(key, (surface = buildSurface(this.host.contributedTools(), enabled)));
    return surface;
  }
}

function buildSurface(contributed: readonly ContributedTool[], enabled: readonly string[] | undefined): ToolSurface {
  const allowed = enabled ? new Set(enabled) : undefined;
  const seen = new Map<string, string>();
  const tools: SurfaceTool[] = [];
  const shadowed: { name: string; pluginId: string; keptFrom: string }[] = [];
  for (const contribution of contributed) {
    if (allowed && !allowed.has(contribution.pluginId)) continue;
    const key = normalizeToolPolicyName(contribution.name);
    const owner = seen.get(key);
    if (owner) {
      shadowed.push({ name: contribution.name, pluginId: contribution.pluginId, keptFrom: owner });
      continue;
    }
    seen.set(key, contribution.pluginId);
    tools.push(Object.freeze({ name: contribution.name, pluginId: isKnownCoreToolId(key) ? undefined : contribution.pluginId, servedBy: contribution.pluginId, contribution }));
  }
  return Object.freeze({ tools: Object.freeze(tools), shadowed: Object.freeze(shadowed) });
}
