/**
 * Who may serve which tool name. A plugin is third-party code: it must not take a name another
 * plugin already serves (calls and their params would silently go to it), nor a core tool's
 * name unless the operator designated it, since policy treats core names as the kernel's own.
 */
import { TOOL_NAME_ALIASES, isKnownCoreToolId, type ToolContribution } from '../../protocol/index.js';
import type { PluginConfig } from './config.js';
import { KernelError } from './errors.js';
import type { ToolRejection } from './tool-screen.js';

/** The name policy matches a tool under (trim, lower-case, the fixed aliases: `bash` is `exec`). */
export function canonicalToolName(name: string): string {
  const folded = name.trim().toLowerCase();
  return TOOL_NAME_ALIASES.get(folded) ?? folded;
}

/** The bundled families serve these core tools unless an operator designates another plugin. */
export const DEFAULT_CORE_TOOL_PLUGINS: Readonly<Record<string, string>> = Object.freeze({
  ls: 'fs', read: 'fs', write: 'fs', edit: 'fs', apply_patch: 'fs', exec: 'shell', process: 'shell',
});

/** Core tool name → the plugin allowed to serve it: `coreTools` entries first, else the default family. */
export function designateCoreTools(configs: readonly PluginConfig[]): Map<string, string> {
  const designated = new Map<string, string>();
  configs.forEach((config, i) => {
    for (const raw of config.coreTools ?? []) {
      const name = canonicalToolName(raw);
      if (!isKnownCoreToolId(name)) {
        throw new KernelError('INVALID_CONFIG', `plugins[${i}] ("${config.id}").coreTools: "${raw}" is not a core tool name`);
      }
      const other = designated.get(name);
      if (other) throw new KernelError('INVALID_CONFIG', `plugins[${i}] ("${config.id}").coreTools: core tool "${name}" is already designated to plugin "${other}"`);
      designated.set(name, config.id);
    }
  });
  for (const [name, pluginId] of Object.entries(DEFAULT_CORE_TOOL_PLUGINS)) if (!designated.has(name)) designated.set(name, pluginId);
  return designated;
}

/**
 * Name ownership across plugins that can meet in one agent's tool surface. What a plugin
 * declares when it first appears (its first handshake, or its manifest) is accepted even if
 * another plugin declares the same name: the surface then keeps the one listed first in the
 * config, deterministically, and warns. Any name a plugin claims later (a tool-list update, a
 * handshake after a restart) is refused while another plugin it shares a surface with holds it,
 * so a plugin cannot take over a tool the operator reviewed. A plugin keeps its names until it
 * drops them itself (a restart or a failure does not free them); a core name only goes to its
 * designee. Plugins that never meet (enabled for different agents) may serve the same name.
 */
export class ToolOwners {
  /** canonical name → plugins holding it. */
  private readonly holders = new Map<string, Set<string>>();
  /** Plugins whose first declaration was accepted. */
  private readonly declared = new Set<string>();

  constructor(
    private readonly designated: ReadonlyMap<string, string>,
    /** Whether two plugins can serve tools to one run (some agent enables both). */
    private readonly sharesSurface: (a: string, b: string) => boolean = () => true,
  ) {}

  /** Splits `tools` into those `pluginId` may serve and refusals naming the other plugin. */
  claim(pluginId: string, tools: readonly ToolContribution[]): { tools: ToolContribution[]; rejected: ToolRejection[] } {
    const first = !this.declared.has(pluginId);
    this.declared.add(pluginId);
    const accepted: ToolContribution[] = [];
    const rejected: ToolRejection[] = [];
    const keys = new Set<string>();
    for (const tool of tools) {
      const key = canonicalToolName(tool.name);
      const refusal = this.refusal(pluginId, key, tool.name, first);
      if (refusal) rejected.push(refusal);
      else {
        accepted.push(tool);
        keys.add(key);
      }
    }
    for (const [key, set] of this.holders) if (set.has(pluginId) && !keys.has(key)) set.delete(pluginId);
    for (const key of keys) this.holders.set(key, (this.holders.get(key) ?? new Set<string>()).add(pluginId));
    return { tools: accepted, rejected };
  }

  private refusal(pluginId: string, key: string, name: string, first: boolean): ToolRejection | undefined {
    if (isKnownCoreToolId(key)) {
      const designee = this.designated.get(key);
      if (designee === pluginId) return undefined;
      const why = designee ? `served by plugin "${designee}"` : 'which no plugin is designated to serve';
      return { name, code: 'CORE_TOOL_NOT_DESIGNATED', reason: `plugin "${pluginId}" may not serve "${name}": it is the core tool "${key}", ${why} (an operator designates core tools with "coreTools" in the plugin entry)` };
    }
    const set = this.holders.get(key);
    if (first || !set || set.has(pluginId)) return undefined;
    const owner = [...set].find((other) => this.sharesSurface(other, pluginId));
    if (owner) {
      return { name, code: 'NAME_TAKEN', reason: `plugin "${pluginId}" may not serve "${name}": plugin "${owner}" already serves a tool of that name, and keeps it` };
    }
    return undefined;
  }
}
