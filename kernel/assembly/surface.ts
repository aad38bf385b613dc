/**
 * The tool surface of a set of enabled plugins: their contributed tools as the policy
 * pipeline sees them, frozen and cached until the host's contributions change, so the
 * pipeline's identity-keyed plans are reused from one assembly to the next.
 *
 * Every tool carries the plugin that serves it, so a plugin id in a deny list removes all
 * of that plugin's tools. A core tool name counts as core (outside `group:plugins`) only
 * when the plugin designated for it serves it (its bundled family, or the plugin an operator
 * names in `coreTools`); from any other plugin it is a plugin tool.
 */
import { isKnownCoreToolId } from '../../protocol/vocabulary/index.js';
import { foldToolName, normalizeToolPolicyName } from '../../sdk/policy/index.js';
import { sanitizeAuditField, type PolicyVocabulary } from '../policy/index.js';
import type { ContributedTool, PluginHost } from '../host/index.js';


/** A contributed tool with what policy needs. */
export interface SurfaceTool {
  readonly name: string;
  /** The serving plugin, as policy lists name it. */
  readonly pluginId: string;
  /** A core tool served by its designated plugin. */
  readonly core: boolean;
  readonly servedBy: string;
  readonly contribution: ContributedTool;
}

export interface ToolSurface {
  readonly tools: readonly SurfaceTool[];
  /** Tools dropped because another plugin serves the name. */
  readonly shadowed: readonly { name: string; pluginId: string; keptFrom: string }[];
  /** One warning per shadowed tool. */
  readonly warnings: readonly string[];
}


export class SurfaceCache {
  #version = -1;
  readonly #byPlugins = new Map<string, ToolSurface>();
  #vocabulary: PolicyVocabulary | undefined;

  constructor(
    private readonly host: PluginHost,
    private readonly configuredPlugins: readonly string[] = [],
  ) {}

  #sync(): void {
    if (this.#version === this.host.contributionsVersion) return;
    this.#byPlugins.clear();
    this.#vocabulary = undefined;
    this.#version = this.host.contributionsVersion;
  }

  /** Surface for the enabled plugins (`undefined` = every plugin), cached per contributions version. */
  get(enabled: readonly string[] | undefined): ToolSurface {
    this.#sync();
    const key = enabled ? enabled.join('\u0000') : '\u0001all';
    let surface = this.#byPlugins.get(key);
    if (!surface) {
      const isDesignated = (name: string, pluginId: string) => this.host.coreToolDesignee(name) === pluginId;
      this.#byPlugins.set(key, (surface = buildSurface(this.host.contributedTools(), enabled, isDesignated)));
    }
    return surface;
  }

  /** Every configured plugin and every contributed tool: what a deny entry may name without being a typo. */
  vocabulary(): PolicyVocabulary {
    this.#sync();
    this.#vocabulary ??= Object.freeze({
      plugins: new Set(this.configuredPlugins.map(foldToolName)),
      tools: new Set(this.host.contributedTools().map((tool) => normalizeToolPolicyName(tool.name))),
    });
    return this.#vocabulary;
  }
}

function buildSurface(contributed: readonly ContributedTool[], enabled: readonly string[] | undefined, isDesignated: (name: string, pluginId: string) => boolean): ToolSurface {
  const allowed = enabled ? new Set(enabled) : undefined;
  const candidates = contributed.filter((contribution) => !allowed || allowed.has(contribution.pluginId));
  // A core name goes to its designated plugin wherever it is listed; any other name to the first plugin.
  const owner = new Map<string, string>();
  for (const { name, pluginId } of candidates) {
    const key = normalizeToolPolicyName(name);
    if (!owner.has(key) || (isDesignated(key, pluginId) && !isDesignated(key, owner.get(key)!))) owner.set(key, pluginId);
  }
  const tools: SurfaceTool[] = [];
  const shadowed: { name: string; pluginId: string; keptFrom: string }[] = [];
  const taken = new Set<string>();
  for (const contribution of candidates) {
    const key = normalizeToolPolicyName(contribution.name);
    const keptFrom = owner.get(key)!;
    if (keptFrom !== contribution.pluginId || taken.has(key)) {
      shadowed.push({ name: contribution.name, pluginId: contribution.pluginId, keptFrom });
      continue;
    }
    taken.add(key);
    const core = isKnownCoreToolId(key) && isDesignated(key, contribution.pluginId);
    // MCP-bridged tools answer to `bundle-mcp` in policy lists, whichever plugin serves them.
    const pluginId = contribution.policyPluginId ?? contribution.pluginId;
    tools.push(Object.freeze({ name: contribution.name, pluginId, core, servedBy: contribution.pluginId, contribution }));
  }
  // A tool name is the plugin's text: escaped before it reaches a log line.
  const warnings = shadowed.map(
    (s) => `tools: plugin "${s.pluginId}" contributes "${sanitizeAuditField(s.name)}", which plugin "${s.keptFrom}" already serves; the model gets "${s.keptFrom}"'s tool. Rename one, or enable only one of them for this agent.`,
  );
  return Object.freeze({ tools: Object.freeze(tools), shadowed: Object.freeze(shadowed), warnings: Object.freeze(warnings) });
}
