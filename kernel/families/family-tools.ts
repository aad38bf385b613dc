/**
 * The kernel's own tool families (`message`, `nodes`, `gateway`) in a run's assembly. They
 * are core tools, so they pass the same policy layers as every other tool (profiles, sandbox
 * default denies, explain); what they reach are plugins: the channels and nodes the run's
 * enabled plugins declare. Assembly stays pure: everything here is cached in-memory lookups.
 */
import type { PincerConfig } from '../config/schema.js';
import type { KernelTool } from '../gate/index.js';
import type { PluginHost } from '../host/index.js';
import { normalizeToolSchema } from '../schema/index.js';
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import type { ToolSurface } from '../assembly/surface.js';
import type { PolicyStep } from '../policy/index.js';
import { splitDeniedChannels, type ChannelDenial } from './channel-denial.js';
import type { ChannelEndpoint } from './endpoints.js';
import { collectEndpoints, type Endpoints } from './endpoints.js';
import { createEndpointCaller, type EndpointCaller } from './endpoint-call.js';
import { GATEWAY_SCHEMA, gatewayKernelTool } from './gateway-tool.js';
import { messageKernelTool, messageSchema } from './message-tool.js';
import { NODES_SCHEMA, nodesKernelTool } from './nodes-tool.js';
import { resolveSessionChannel } from './session-channel.js';

export type FamilyName = 'message' | 'nodes' | 'gateway';

/** A family tool as the policy pipeline sees it: a core tool (no plugin id). */
export interface FamilySurfaceTool {
  readonly name: FamilyName;
  readonly family: FamilyName;
  readonly core: true;
}

export interface FamilySurface {
  readonly tools: readonly (ToolSurface['tools'][number] | FamilySurfaceTool)[];
  readonly warnings: readonly string[];
}

/** What a run contributes to the family decision. */
export interface FamilyRun {
  enabledPlugins: readonly string[] | undefined;
  channel?: string;
  sessionKey: string;
  agentId: string;
}

const ENTRIES: Readonly<Record<FamilyName, FamilySurfaceTool>> = Object.freeze({
  message: Object.freeze({ name: 'message', family: 'message', core: true }),
  nodes: Object.freeze({ name: 'nodes', family: 'nodes', core: true }),
  gateway: Object.freeze({ name: 'gateway', family: 'gateway', core: true }),
});

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

interface Reach {
  usable: Map<string, ChannelEndpoint>;
  denied: Map<string, ChannelDenial>;
  schemas: Map<string, Record<string, unknown>>;
}

const NO_STEPS: readonly PolicyStep[] = Object.freeze([]);

const enabledKey = (enabled: readonly string[] | undefined): string => (enabled ? enabled.join('\u0000') : '\u0001all');
const CACHE_LIMIT = 256;

export function isFamilyTool(tool: object): tool is FamilySurfaceTool {
  return 'family' in tool && (tool as FamilySurfaceTool).core === true && typeof (tool as FamilySurfaceTool).family === 'string';
}

export class FamilyTools {
  readonly #caller: EndpointCaller;
  #version = -1;
  readonly #endpoints = new Map<string, Endpoints>();
  readonly #surfaces = new WeakMap<ToolSurface, Map<string, FamilySurface>>();
  readonly #served = new WeakMap<ToolSurface, ReadonlyMap<string, string>>();
  /** Channels in reach per run shape (its policy steps) and enabled plugins, with the message schemas built over them. */
  #reach = new WeakMap<readonly PolicyStep[], Map<string, Reach>>();

  constructor(
    private readonly host: PluginHost,
    private readonly config: PincerConfig,
  ) {
    this.#caller = createEndpointCaller(host, config.plugins ?? []);
  }

  #sync(): void {
    if (this.#version === this.host.contributionsVersion) return;
    this.#version = this.host.contributionsVersion;
    this.#endpoints.clear();
    this.#reach = new WeakMap();
  }

  #endpointsFor(enabled: readonly string[] | undefined): Endpoints {
    this.#sync();
    const key = enabledKey(enabled);
    let found = this.#endpoints.get(key);
    if (!found) this.#endpoints.set(key, (found = collectEndpoints(this.host.contributions(), enabled)));
    return found;
  }

  #channelsFor(run: FamilyRun, runSteps: () => readonly PolicyStep[]) {
    const endpoints = this.#endpointsFor(run.enabledPlugins);
    const key = enabledKey(run.enabledPlugins);
    const steps = endpoints.channels.size > 0 ? runSteps() : NO_STEPS;
    let byEnabled = this.#reach.get(steps);
    if (!byEnabled) this.#reach.set(steps, (byEnabled = new Map()));
    let reach = byEnabled.get(key);
    if (!reach) byEnabled.set(key, (reach = { ...splitDeniedChannels(endpoints.channels, steps), schemas: new Map() }));
    const session = resolveSessionChannel(run.channel, this.config.tools?.message?.defaultChannel, reach.usable, reach.denied);
    return { endpoints, reach, session };
  }

  /** Family names a plugin already serves in this surface (normalized name → plugin id), cached per surface. */
  #servedNames(base: ToolSurface): ReadonlyMap<string, string> {
    let served = this.#served.get(base);
    if (!served) {
      const families = new Set<string>(Object.keys(ENTRIES));
      served = new Map(base.tools.map((tool) => [normalizeToolPolicyName(tool.name), tool.pluginId] as const).filter(([name]) => families.has(name)));
      this.#served.set(base, served);
    }
    return served;
  }

  /** The base surface plus the family tools this run gets, frozen and cached per shape. */
  extend(base: ToolSurface, run: FamilyRun, steps: () => readonly PolicyStep[]): FamilySurface {
    const { endpoints, session } = this.#channelsFor(run, steps);
    const wanted: FamilyName[] = [];
    if (session.channel) wanted.push('message');
    if (endpoints.nodes.size > 0) wanted.push('nodes');
    if (this.config.tools?.gateway?.enabled === true) wanted.push('gateway');
    // A plugin the operator lets serve the name keeps it; the kernel does not offer a second tool of that name.
    const served = this.#servedNames(base);
    const present = wanted.filter((name) => !served.has(name));
    const warnings = [
      ...endpoints.warnings,
      ...(session.warning ? [session.warning] : []),
      ...wanted.filter((name) => served.has(name)).map((name) => `tools: plugin "${served.get(name)}" serves "${name}", so the kernel's own ${name} tool is not offered to this run.`),
    ];
    if (present.length === 0 && warnings.length === 0) return base;
    const key = `${this.#version}\u0000${present.join(',')}\u0000${warnings.join('\u0000')}`;
    let byKey = this.#surfaces.get(base);
    if (!byKey) this.#surfaces.set(base, (byKey = new Map()));
    let surface = byKey.get(key);
    if (!surface) {
      if (byKey.size >= CACHE_LIMIT) byKey.clear();
      surface = Object.freeze({ tools: Object.freeze([...base.tools, ...present.map((name) => ENTRIES[name])]), warnings: Object.freeze([...base.warnings, ...warnings]) });
      byKey.set(key, surface);
    }
    return surface;
  }

  /** The kernel tool behind a family entry the policy kept, bound to this run. */
  bind(tool: FamilySurfaceTool, run: FamilyRun, target: Parameters<typeof normalizeToolSchema>[1], steps: () => readonly PolicyStep[]): KernelTool {
    const { endpoints, reach, session } = this.#channelsFor(run, steps);
    if (tool.family === 'gateway') return gatewayKernelTool(this.config, normalizeToolSchema(GATEWAY_SCHEMA, target));
    if (tool.family === 'nodes') return nodesKernelTool({ sessionKey: run.sessionKey, agentId: run.agentId, nodes: endpoints.nodes }, normalizeToolSchema(NODES_SCHEMA, target), this.#caller);
    const own = session.channel!;
    const crossSession = this.config.tools?.message?.crossSession === true;
    const reachable = crossSession ? [own, ...[...reach.usable.values()].filter((channel) => channel !== own)] : [own];
    const binding = {
      own,
      reachable,
      crossSession,
      allChannels: reach.usable,
      denied: reach.denied,
      maxBodyBytes: this.config.tools?.message?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      sessionKey: run.sessionKey,
      agentId: run.agentId,
    };
    // One schema object per view, so provider normalization (cached by identity) runs once.
    let schema = reach.schemas.get(own.id);
    if (!schema) reach.schemas.set(own.id, (schema = messageSchema(binding)));
    return messageKernelTool(binding, normalizeToolSchema(schema, target), this.#caller);
  }
}
