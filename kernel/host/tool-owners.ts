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
  automations: 'automations',
  sessions_spawn: 'sessions', sessions_send: 'sessions', sessions_yield: 'sessions', sessions_list: 'sessions', sessions_history: 'sessions', session_status: 'sessions',
  subagents: 'tasks',
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
 * Name ownership across plugins. The first plugin to claim a name keeps it until it drops the
 * name itself (a restart or a failure does not free it); a core name only goes to its designee.
 */
export class ToolOwners {
  private readonly owners = new Map<string, string>();

  constructor(private readonly designated: ReadonlyMap<string, string>) {}

  /** Splits `tools` into those `pluginId` may serve and refusals naming the other plugin. */
  claim(pluginId: string, tools: readonly ToolContribution[]): { tools: ToolContribution[]; rejected: ToolRejection[] } {
    const accepted: ToolContribution[] = [];
    const rejected: ToolRejection[] = [];
    const keys = new Set<string>();
    for (const tool of tools) {
      const key = canonicalToolName(tool.name);
      const refusal = this.refusal(pluginId, key, tool.name);
      if (refusal) rejected.push(refusal);
      else {
        accepted.push(tool);
        keys.add(key);
      }
    }
    for (const [key, owner] of this.owners) if (owner === pluginId && !keys.has(key)) this.owners.delete(key);
    for (const key of keys) this.owners.set(key, pluginId);
    return { tools: accepted, rejected };
  }

  private refusal(pluginId: string, key: string, name: string): ToolRejection | undefined {
    if (isKnownCoreToolId(key)) {
      const designee = this.designated.get(key);
      if (designee === pluginId) return undefined;
      const why = designee ? `served by plugin "${designee}"` : 'which no plugin is designated to serve';
      return { name, code: 'CORE_TOOL_NOT_DESIGNATED', reason: `plugin "${pluginId}" may not serve "${name}": it is the core tool "${key}", ${why} (an operator designates core tools with "coreTools" in the plugin entry)` };
    }
    const owner = this.owners.get(key);
    if (owner && owner !== pluginId) {
      return { name, code: 'NAME_TAKEN', reason: `plugin "${pluginId}" may not serve "${name}": plugin "${owner}" already serves a tool of that name, and keeps it` };
    }
    return undefined;
  }
}
