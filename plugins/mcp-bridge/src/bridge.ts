/**
 * The MCP bridge: each configured server behind a lazily connected client, its catalog (live,
 * or cached from an earlier run so nothing starts before it is used), the tools materialized
 * from all catalogs, the definition pins, and the status of every server for the kernel.
 */
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { BeforeToolCallEvent, BeforeToolCallResult, PluginComponentStatus } from '../../../protocol/index.js';
import { buildSafeMcpServerNames } from '../../../sdk/policy/index.js';
import type { ActivateResult, PluginLogger, PluginRuntime, ToolContext, ToolDefinition } from '../../../sdk/plugin-api.js';
import { CatalogCache } from './catalog/cache.js';
import { materializeCatalogs } from './catalog/materialize.js';
import { PinStore } from './catalog/pins.js';
import type { BridgedTool, ServerCatalog } from './catalog/types.js';
import { parseBridgeSettings, toolTimeout, type BridgeSettings } from './config.js';
import { ServerConnection } from './servers/connection.js';
import { createServerTransport } from './servers/transport.js';
import { bridgedToolDefinition } from './tools/definition.js';
import { callBridgedTool } from './tools/call.js';
import { failureResult } from './tools/results.js';
import { bridgeDataDir } from './state-file.js';
import type { OAuthProviderFactory } from './auth/provider-factory.js';

interface Changed {
  changes: string[];
  pinnedAt: string;
}

export interface BridgeOptions {
  version: string;
  env?: NodeJS.ProcessEnv;
  oauth?: OAuthProviderFactory;
}

export class McpBridge {
  #runtime: PluginRuntime | undefined;
  #settings!: BridgeSettings;
  #log!: PluginLogger;
  readonly #connections = new Map<string, ServerConnection>();
  readonly #catalogs = new Map<string, ServerCatalog>();
  readonly #changed = new Map<string, Changed>();
  #safeNames = new Map<string, string>();
  #tools: BridgedTool[] = [];
  #pins!: PinStore;
  #cache!: CatalogCache;
  #statusQueued = false;

  constructor(private readonly options: BridgeOptions) {}

  attach(runtime: PluginRuntime): void {
    this.#runtime = runtime;
  }

  activate(settings: Record<string, unknown>, log: PluginLogger): ActivateResult {
    this.#settings = parseBridgeSettings(settings);
    this.#log = log;
    const data = bridgeDataDir(this.options.env);
    if (!data.persistent) log.warn('mcp: no PINCER_PLUGIN_DATA_DIR; definition pins and the catalog cache last only as long as this process');
    this.#pins = new PinStore(join(data.dir, 'pins.json'));
    this.#cache = new CatalogCache(join(data.dir, 'catalog-cache.json'));
    const names = Object.keys(this.#settings.servers);
    const computed = buildSafeMcpServerNames([...names, ...this.#settings.deniedServers]);
    this.#safeNames = new Map(names.map((name) => [name, this.#settings.safeServerNames[name] ?? computed.get(name)!]));
    const undiscovered: ServerConnection[] = [];
    for (const name of names) {
      const connection = this.#connection(name);
      const cached = this.#cache.get(name, connection.settings);
      if (cached) this.#catalogs.set(name, cached);
      else undiscovered.push(connection);
    }
    const tools = this.#rebuild();
    // Sent before the handshake answer, so the kernel's status has every server once the bridge is ready.
    this.#runtime?.reportStatus(this.status()).catch(() => undefined);
    // After the handshake answer: servers never seen before are started once to learn their tools.
    setImmediate(() => {
      this.#queueStatus();
      for (const connection of undiscovered) connection.client().catch(() => undefined);
    });
    return { tools, hooks: this.#settings.pinning.onChange === 'approve' ? this.#approvalHooks(names) : undefined };
  }

  #connection(name: string): ServerConnection {
    const settings = this.#settings.servers[name];
    const connection = new ServerConnection(name, settings, {
      clientInfo: { name: 'pincer-mcp-bridge', version: this.options.version },
      maxTools: this.#settings.maxToolsPerServer,
      createTransport: () =>
        createServerTransport(name, settings, {
          env: this.options.env ?? process.env,
          oauth: this.options.oauth,
          onNoise: (message) => this.#log.debug(`MCP server "${name}" wrote ${message}`),
        }),
      onCatalog: (catalog) => this.#onCatalog(name, catalog),
      onStateChange: () => this.#queueStatus(),
      log: (level, message) => this.#log[level](message),
    });
    this.#connections.set(name, connection);
    return connection;
  }

  #onCatalog(name: string, catalog: ServerCatalog): void {
    this.#catalogs.set(name, catalog);
    this.#cache.set(name, this.#settings.servers[name], catalog);
    this.#publish();
  }

  /** Re-materializes and tells the kernel (which refreshes every assembly and `pincer serve`'s clients). */
  #publish(): void {
    const tools = this.#rebuild();
    this.#runtime?.updateTools(tools).catch((error: Error) => this.#log.warn(`mcp: tools/listChanged not sent: ${error.message}`));
    this.#queueStatus();
  }

  /** Materializes every known catalog and checks each tool against its pin. */
  #rebuild(): ToolDefinition<any>[] {
    const inputs = [...this.#catalogs].map(([serverName, catalog]) => ({
      serverName,
      safeServerName: this.#safeNames.get(serverName)!,
      settings: this.#settings.servers[serverName],
      catalog,
    }));
    const { tools, warnings } = materializeCatalogs(inputs);
    for (const warning of warnings) this.#log.warn(warning);
    this.#tools = tools;
    this.#changed.clear();
    for (const tool of tools) {
      const source = this.#sourceTool(tool);
      if (!source) continue;
      const verdict = this.#pins.check(tool.serverName, source);
      if (verdict.state === 'changed') {
        this.#changed.set(tool.name, verdict);
        this.#log.warn(`mcp: tool "${tool.toolName}" of server "${tool.serverName}" changed since it was pinned (${verdict.pinnedAt}): ${verdict.changes.join('; ')}`);
      }
    }
    return tools.map((tool) =>
      bridgedToolDefinition(tool, {
        timeoutMs: toolTimeout(this.#settings.servers[tool.serverName], tool.toolName),
        blocked: this.#changed.has(tool.name) && this.#settings.pinning.onChange === 'block',
        handler: (args, ctx) => this.#call(tool, args, ctx),
      }),
    );
  }

  #sourceTool(tool: BridgedTool): Tool | undefined {
    return tool.operation === 'tool' ? this.#catalogs.get(tool.serverName)?.tools.find((t) => t.name === tool.toolName) : undefined;
  }

  async #call(tool: BridgedTool, args: Record<string, unknown>, ctx: ToolContext) {
    const changed = this.#stillChanged(tool);
    if (changed && this.#settings.pinning.onChange === 'block') {
      return failureResult(tool, `${describeChange(tool, changed)} Its calls are blocked until an operator reviews and accepts the new definition.`, { definitionChanged: changed.changes });
    }
    return callBridgedTool(this.#connections.get(tool.serverName)!, tool, args, ctx);
  }

  /** Whether a tool is still marked changed; an operator may have accepted it since (the pin was dropped). */
  #stillChanged(tool: BridgedTool): Changed | undefined {
    const changed = this.#changed.get(tool.name);
    const source = this.#sourceTool(tool);
    if (!changed || !source) return changed;
    if (this.#pins.check(tool.serverName, source).state === 'changed') return changed;
    this.#log.info(`mcp: the new definition of tool "${tool.toolName}" of server "${tool.serverName}" was accepted`);
    this.#publish();
    return undefined;
  }

  /** In `approve` mode: every call of a changed tool asks the operator, bound to the new definition. */
  #approvalHooks(serverNames: string[]): ActivateResult['hooks'] {
    return {
      before_tool_call: {
        priority: 100,
        tools: serverNames.map((name) => `${this.#safeNames.get(name)}__*`),
        handler: (event: BeforeToolCallEvent): BeforeToolCallResult | undefined => {
          const tool = this.#tools.find((t) => t.name.toLowerCase() === event.toolName.toLowerCase());
          const changed = tool && this.#stillChanged(tool);
          if (!tool || !changed) return undefined;
          return {
            requireApproval: {
              title: `Changed MCP tool ${tool.name}`,
              description: `${describeChange(tool, changed)} Approve only if you trust the new definition.`,
              severity: 'warning',
            },
          };
        },
      },
    };
  }

  #queueStatus(): void {
    if (this.#statusQueued || !this.#runtime) return;
    this.#statusQueued = true;
    setImmediate(() => {
      this.#statusQueued = false;
      this.#runtime?.reportStatus(this.status()).catch(() => undefined);
    });
  }

  /** Each server's state and last error, as `pincer plugins` shows them. */
  status(): PluginComponentStatus[] {
    const servers: PluginComponentStatus[] = [...this.#connections.values()].map((c) => {
      const tools = this.#tools.filter((t) => t.serverName === c.name).length;
      const detail = [c.detail(), this.#catalogs.has(c.name) ? `${tools} tool${tools === 1 ? '' : 's'}` : undefined].filter(Boolean).join(', ');
      return {
        kind: 'mcp-server',
        name: c.name,
        state: c.state,
        ...(c.lastError ? { lastError: c.lastError.slice(0, 2000), lastErrorAt: c.lastErrorAt?.toISOString() } : {}),
        ...(detail ? { detail } : {}),
      };
    });
    const denied = this.#settings.deniedServers.map((name) => ({ kind: 'mcp-server', name, state: 'denied', detail: 'the policy denies all its tools for every agent; never started' }));
    return [...servers, ...denied];
  }

  async deactivate(): Promise<void> {
    await Promise.all([...this.#connections.values()].map((c) => c.close()));
  }
}

function describeChange(tool: BridgedTool, changed: Changed): string {
  return `MCP server "${tool.serverName}" changed the definition of tool "${tool.toolName}" since it was first seen (${changed.pinnedAt}): ${changed.changes.join('; ')}.`;
}
