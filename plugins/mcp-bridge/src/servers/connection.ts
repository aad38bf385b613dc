/**
 * One configured MCP server, connected lazily: nothing runs until a call needs it (or the bridge
 * needs its catalog and has none cached). A dropped connection is retried with backoff; a call
 * meanwhile fails at once, saying when the next attempt is. Every state change is reported, so
 * operators see each server's state and last error in `pincer plugins`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSettings } from '../config.js';
import type { ServerCatalog } from '../catalog/types.js';
import { reconnectDelay, RECONNECT_MAX_ATTEMPTS } from './backoff.js';
import { describeServerError, ServerUnavailableError } from './errors.js';
import { StdioServerTransport } from './stdio-transport.js';

export type ServerState = 'idle' | 'connecting' | 'ready' | 'reconnecting' | 'failed';

export interface ServerConnectionDeps {
  createTransport(): Transport;
  clientInfo: { name: string; version: string };
  maxTools: number;
  /** A fresh catalog (after connecting, or after the server announced a list change). */
  onCatalog(catalog: ServerCatalog): void;
  onStateChange(): void;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
}

/** Longest wait between two refreshes when a server floods list-changed notifications. */
const LIST_CHANGED_COALESCE_MS = 250;
const MAX_LIST_PAGES = 50;

export class ServerConnection {
  state: ServerState = 'idle';
  lastError: string | undefined;
  lastErrorAt: Date | undefined;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #connecting: Promise<Client> | undefined;
  #failures = 0;
  #retryAt = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #refreshTimer: NodeJS.Timeout | undefined;
  #refreshing = false;
  #closed = false;

  constructor(
    readonly name: string,
    readonly settings: ServerSettings,
    private readonly deps: ServerConnectionDeps,
  ) {}

  /** One line for the status report: pid, tools, or when the next attempt is. */
  detail(): string | undefined {
    if (this.state === 'reconnecting') return `next attempt in ${Math.max(0, Math.ceil((this.#retryAt - Date.now()) / 1000))} s (failure ${this.#failures})`;
    const pid = this.#transport instanceof StdioServerTransport ? this.#transport.pid : undefined;
    return pid !== undefined && this.state === 'ready' ? `pid ${pid}` : undefined;
  }

  /** `; its stderr ended with: …` for a stdio server that wrote to stderr, else ''. */
  stderrTail(): string {
    return this.#transport instanceof StdioServerTransport ? this.#transport.stderrTail.describe() : '';
  }

  /** The connected client, connecting now if needed; fails fast while a reconnect is waiting. */
  async client(): Promise<Client> {
    if (this.#client && this.state === 'ready') return this.#client;
    if (this.#connecting) return this.#connecting;
    if (this.#closed) throw new ServerUnavailableError(this.name, 'the bridge is shutting down');
    if (this.state === 'reconnecting' && Date.now() < this.#retryAt) {
      const seconds = Math.ceil((this.#retryAt - Date.now()) / 1000);
      throw new ServerUnavailableError(this.name, `${this.lastError ?? 'it failed'}; the next connection attempt is in ${seconds} s`);
    }
    return this.#connect();
  }

  #connect(): Promise<Client> {
    clearTimeout(this.#retryTimer);
    this.#setState('connecting');
    this.#connecting = this.#open().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #open(): Promise<Client> {
    const client = new Client(this.deps.clientInfo, { capabilities: {} });
    let transport: Transport | undefined;
    try {
      transport = this.deps.createTransport();
      this.#transport = transport;
      client.onclose = () => this.#onClosed(client);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#scheduleRefresh(client));
      await client.connect(transport, { timeout: this.settings.connectTimeoutMs });
      const catalog = await this.#fetchCatalog(client);
      if (this.#closed) throw new ServerUnavailableError(this.name, 'the bridge is shutting down');
      this.#client = client;
      this.#failures = 0;
      this.#setState('ready');
      this.deps.onCatalog(catalog);
      return client;
    } catch (error) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      const message = describeServerError(this.name, this.settings, error, transport);
      this.#fail(message);
      throw new ServerUnavailableError(this.name, message, { cause: error });
    }
  }

  /** Every page of tools/list (bounded), plus what the server declared it offers. */
  async #fetchCatalog(client: Client): Promise<ServerCatalog> {
    const capabilities = client.getServerCapabilities() ?? {};
    const tools: Tool[] = [];
    if (capabilities.tools) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const result = await client.listTools(cursor ? { cursor } : {}, { timeout: this.settings.connectTimeoutMs });
        tools.push(...result.tools);
        cursor = result.nextCursor;
        if (!cursor || tools.length >= this.deps.maxTools) break;
      }
      if (tools.length > this.deps.maxTools) {
        this.deps.log('warn', `MCP server "${this.name}" lists ${tools.length} or more tools; only the first ${this.deps.maxTools} are used (maxToolsPerServer)`);
        tools.length = this.deps.maxTools;
      }
    }
    return { tools, resources: capabilities.resources !== undefined, prompts: capabilities.prompts !== undefined };
  }

  /** list_changed: refresh the catalog, coalescing a flood into one fetch at a time. */
  #scheduleRefresh(client: Client): void {
    if (this.#refreshTimer || client !== this.#client) return;
    this.#refreshTimer = setTimeout(() => {
      this.#refreshTimer = undefined;
      if (this.#refreshing) return this.#scheduleRefresh(client);
      this.#refreshing = true;
      this.#fetchCatalog(client)
        .then((catalog) => client === this.#client && this.deps.onCatalog(catalog))
        .catch((error: Error) => this.deps.log('warn', `MCP server "${this.name}": refreshing its tools after list_changed failed: ${error.message}`))
        .finally(() => (this.#refreshing = false));
    }, LIST_CHANGED_COALESCE_MS);
  }

  #onClosed(client: Client): void {
    if (client !== this.#client) return;
    this.#client = undefined;
    if (this.#closed) return;
    this.#fail(`the connection to MCP server "${this.name}" closed${this.stderrTail()}`);
  }

  #fail(message: string): void {
    this.lastError = message;
    this.lastErrorAt = new Date();
    this.#failures += 1;
    this.deps.log('warn', message);
    if (this.#closed) return;
    if (this.#failures >= RECONNECT_MAX_ATTEMPTS) {
      // Stop retrying on our own; the next call tries once more.
      this.#retryAt = 0;
      this.#setState('failed');
      return;
    }
    const delay = reconnectDelay(this.#failures);
    this.#retryAt = Date.now() + delay;
    this.#setState('reconnecting');
    this.#retryTimer = setTimeout(() => {
      if (this.state === 'reconnecting' && !this.#connecting) this.#connect().catch(() => undefined);
    }, delay);
    this.#retryTimer.unref();
  }

  /** Kills a server that misbehaves (a flood), so its next use starts it afresh. */
  abandon(reason: string): void {
    if (this.#transport instanceof StdioServerTransport) this.#transport.kill();
    else void this.#transport?.close();
    this.#fail(reason);
  }

  #setState(state: ServerState): void {
    if (this.state === state) return;
    this.state = state;
    this.deps.onStateChange();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#refreshTimer);
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => undefined);
    await this.#transport?.close().catch(() => undefined);
  }
}
