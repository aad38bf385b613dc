/**
 * `toolsChanged` with a payload (24.4): a diff of what the plugins contribute, per plugin,
 * taken on every host change but reported only when a tool list really changed (a tool
 * added, removed, or its description or schema updated); never while stopping.
 */
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import type { ContributedTool, PluginHost } from '../host/index.js';

/** What changed in one plugin's contribution; a run's tool list can change with it. */
export interface ToolsChangedEvent {
  pluginId: string;
  /** The plugin's state now (`ready`, `failed`, …). */
  state: string;
  /** Tool names as contributed. */
  added: string[];
  removed: string[];
  /** Same name, new description or schema. */
  updated: string[];
}

type Snapshot = Map<string, Map<string, string>>;

function snapshotOf(tools: readonly ContributedTool[]): Snapshot {
  const byPlugin: Snapshot = new Map();
  for (const tool of tools) {
    let mine = byPlugin.get(tool.pluginId);
    if (!mine) byPlugin.set(tool.pluginId, (mine = new Map()));
    mine.set(tool.name, JSON.stringify([tool.description, tool.inputSchema]));
  }
  return byPlugin;
}

function diffPlugin(pluginId: string, before: Map<string, string> | undefined, after: Map<string, string> | undefined, state: string): ToolsChangedEvent | undefined {
  const old = before ?? new Map<string, string>();
  const now = after ?? new Map<string, string>();
  const added = [...now.keys()].filter((name) => !old.has(name));
  const removed = [...old.keys()].filter((name) => !now.has(name));
  const updated = [...now.keys()].filter((name) => old.has(name) && old.get(name) !== now.get(name));
  return added.length || removed.length || updated.length ? { pluginId, state, added, removed, updated } : undefined;
}

export class ToolListTracker {
  #snapshot: Snapshot = new Map();
  #version = -1;
  /** Canonical tool name → the plugin that last contributed it, kept after the plugin fails. */
  readonly #providers = new Map<string, string>();

  constructor(private readonly host: PluginHost) {}

  /** Take the current lists as the baseline, reporting nothing (after start). */
  reset(): void {
    this.#snapshot = this.#read();
  }

  /** The per-plugin changes since the last look; empty when nothing a run sees changed. */
  changes(): ToolsChangedEvent[] {
    if (this.#version === this.host.contributionsVersion) return [];
    const next = this.#read();
    const events: ToolsChangedEvent[] = [];
    for (const pluginId of new Set([...this.#snapshot.keys(), ...next.keys()])) {
      const event = diffPlugin(pluginId, this.#snapshot.get(pluginId), next.get(pluginId), this.host.pluginStatus(pluginId).state);
      if (event) events.push(event);
    }
    this.#snapshot = next;
    return events;
  }

  /** The plugin that contributed a tool of this name, even if it has failed since. */
  providerOf(name: string): string | undefined {
    return this.#providers.get(normalizeToolPolicyName(name));
  }

  #read(): Snapshot {
    this.#version = this.host.contributionsVersion;
    const tools = this.host.contributedTools();
    for (const tool of tools) this.#providers.set(normalizeToolPolicyName(tool.name), tool.pluginId);
    return snapshotOf(tools);
  }
}
