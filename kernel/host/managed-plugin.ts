import type { MessageConnection, RequestType } from 'vscode-jsonrpc/node';
import { FramingError, MessageTooLargeError, type Contributions, type PeerInfo, type PluginComponentStatus } from '../../protocol/index.js';
import { requestWithDeadline, InflightCalls, type DeadlineOptions } from './call.js';
import type { PluginConfig, RestartPolicy } from './config.js';
import type { WorkspaceHandler } from './connection.js';
import { KernelError, toKernelError } from './errors.js';
import { performHandshake } from './handshake.js';
import type { HostLogger } from './logger.js';
import { loadManifest, manifestPath } from './manifest.js';
import { startPluginProcess, type PluginProcess } from './plugin-process.js';
import type { SpawnedPlugin } from './spawn.js';
import type { PluginLifecycleState, PluginStatus } from './status.js';
import { CrashWindow, PERMANENT_START_ERRORS } from './supervise.js';
import { killPlugin, terminatePlugin } from './terminate.js';

export interface ManagedPluginDeps {
  kernel: PeerInfo;
  logger: HostLogger;
  restart: RestartPolicy;
  inheritEnv?: readonly string[];
  workspace: () => WorkspaceHandler | undefined;
  /** State or contributions changed (the host bumps its version, listeners refresh). */
  onChange: () => void;
}

const EMPTY: Contributions = Object.freeze({ tools: [], sandboxBackends: [], skillSources: [], hooks: [] });

/**
 * One supervised plugin: lazy → starting → ready, and on a crash restarting (with backoff) or
 * failed (after too many crashes in the window). Every call it carries settles.
 */
/** Whether the process exits within `ms` (already exited counts). */
function exitsWithin(proc: PluginProcess['proc'], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([proc.exited.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

export class ManagedPlugin {
  state: PluginLifecycleState;
  contributes: Contributions = EMPTY;
  private proc: SpawnedPlugin | undefined;
  private conn: MessageConnection | undefined;
  private generation = 0;
  private starting: Promise<void> | undefined;
  private fatalError: KernelError | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly crashes: CrashWindow;
  readonly inflight = new InflightCalls();
  restarts = 0;
  lastError: { error: KernelError; at: Date } | undefined;
  protocolVersion: number | undefined;
  pluginVersion: string | undefined;
  /** The plugin's latest report on its own parts (MCP servers of the bridge, …); status only, no assembly change. */
  components: readonly PluginComponentStatus[] = [];

  constructor(readonly config: PluginConfig, private readonly deps: ManagedPluginDeps) {
    this.crashes = new CrashWindow(deps.restart);
    this.state = config.lazy ? 'lazy' : 'stopped';
    if (!config.lazy) return;
    try {
      const file = manifestPath(config);
      if (!file) throw new KernelError('INVALID_MANIFEST', `plugin "${config.id}" is lazy but has no manifest (set "manifest" or ship pincer-plugin.json next to its module)`, { pluginId: config.id });
      const manifest = loadManifest(config, file);
      this.contributes = manifest.contributes;
      this.pluginVersion = manifest.version;
      this.protocolVersion = manifest.protocolVersion;
    } catch (error) {
      this.markFailed(toKernelError(error, config.id, 'manifest'));
    }
  }

  get id(): string {
    return this.config.id;
  }

  /** Starts the process unless it is running; concurrent callers share one start. */
  start(): Promise<void> {
    if (this.state === 'ready') return Promise.resolve();
    if (this.starting) return this.starting;
    const refusal = this.refusal();
    if (refusal) return Promise.reject(refusal);
    return this.relaunch();
  }

  private relaunch(): Promise<void> {
    this.starting = this.launch().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Sends a request once the plugin is ready, with deadline, cancellation and progress. */
  async request<P extends object, R>(type: RequestType<P, R, unknown>, params: P, options: DeadlineOptions, what: string): Promise<R> {
    if (this.state !== 'ready') await this.start();
    const conn = this.conn;
    if (!conn || this.state !== 'ready') throw this.refusal() ?? new KernelError('PLUGIN_NOT_READY', `plugin "${this.id}" is not ready`, { pluginId: this.id });
    return requestWithDeadline(conn, type, params, options, { pluginId: this.id, what, inflight: this.inflight });
  }

  /** Why a call cannot go through now, or undefined when it may (after a start). */
  private refusal(): KernelError | undefined {
    const pluginId = this.id;
    if (this.state === 'failed') {
      return new KernelError('PLUGIN_FAILED', `plugin "${pluginId}" has failed and is not running: ${this.lastError?.error.message ?? 'unknown reason'}`, { pluginId, cause: this.lastError?.error });
    }
    if (this.closed || this.state === 'stopping') return new KernelError('PLUGIN_STOPPED', `plugin "${pluginId}" is stopped`, { pluginId });
    if (this.state === 'restarting') {
      return new KernelError('PLUGIN_NOT_READY', `plugin "${pluginId}" is restarting after a crash (restart ${this.restarts}); try again shortly`, { pluginId, cause: this.lastError?.error });
    }
    return undefined;
  }

  private async launch(): Promise<void> {
    const gen = ++this.generation;
    const { config, deps } = this;
    this.fatalError = undefined;
    this.setState('starting');
    let started: PluginProcess;
    try {
      started = await startPluginProcess(config, deps, {
        onToolsChanged: (tools) => {
          if (gen !== this.generation) return;
          this.contributes = { ...this.contributes, tools };
          deps.onChange();
        },
        onStatusChanged: (components) => {
          if (gen === this.generation) this.components = components;
        },
        onTransportError: (error) => this.onTransportError(gen, error),
        onClose: () => this.onConnectionClosed(gen),
      });
    } catch (error) {
      this.markFailed(toKernelError(error, config.id, 'spawn'));
      throw error;
    }
    const { proc, conn } = started;
    this.proc = proc;
    this.conn = conn;
    void proc.exited.then((info) => this.onExit(gen, info));
    const died = proc.exited.then((info) => {
      throw this.fatalError ?? this.crashError(info, 'during start');
    });
    died.catch(() => undefined); // only the handshake race observes it
    try {
      const result = await Promise.race([
        performHandshake(conn, { pluginId: config.id, kernel: deps.kernel, settings: config.settings, timeoutMs: config.timeouts.handshakeMs }),
        died,
      ]);
      if (gen !== this.generation || this.state !== 'starting') throw new KernelError('PLUGIN_STOPPED', `plugin "${config.id}" was stopped while starting`, { pluginId: config.id });
      this.contributes = result.contributes;
      this.protocolVersion = result.protocolVersion;
      this.pluginVersion = result.plugin.version;
      this.setState('ready');
    } catch (cause) {
      const error = toKernelError(cause, config.id, 'start');
      // The pipe closed under the handshake: the process is dying. Its exit handler records the
      // crash with the real exit status and decides restart or failed (never "permanent").
      if (error.code === 'PLUGIN_CRASHED') {
        await proc.exited;
        throw error;
      }
      // A write to a pipe that just closed fails with a plain connection error, not a crash
      // code. Unless the plugin gave a definite answer (a version refusal), give the exit event
      // a moment: a process that dies now crashed during start and gets the restart policy.
      if (error.code !== 'VERSION_MISMATCH' && (await exitsWithin(proc, 300))) throw error;
      // Stopped meanwhile, or the exit handler already recorded this crash: nothing more to do.
      if (this.state !== 'starting' || this.closed) throw error;
      if (PERMANENT_START_ERRORS.has(error.code) && !error.retryable) {
        this.markFailed(error);
        await killPlugin(proc);
      } else this.fatal(gen, error);
      throw error;
    }
  }

  private crashError(info: { code: number | null; signal: string | null }, when: string): KernelError {
    const how = info.signal ? `was killed by ${info.signal}` : `exited with code ${info.code}`;
    return new KernelError('PLUGIN_CRASHED', `plugin "${this.id}" ${how} ${when}`, { pluginId: this.id });
  }

  /** A fatal condition of the current process: settle its calls now, then kill its group. */
  private fatal(gen: number, error: KernelError): void {
    if (gen !== this.generation || this.fatalError) return;
    this.fatalError = error;
    this.lastError = { error, at: new Date() };
    this.inflight.rejectAll(error);
    this.deps.logger({ level: 'error', source: `plugin:${this.id}`, message: error.message });
    // New calls must not reach a dying process; the exit handler decides restart or failed.
    if (this.state === 'ready' || this.state === 'starting') this.setState('restarting');
    if (this.proc) void killPlugin(this.proc);
  }

  private onTransportError(gen: number, error: Error): void {
    if (error instanceof FramingError) {
      this.fatal(gen, new KernelError('FRAMING_ERROR', error.message, { pluginId: this.id, cause: error }));
    } else if (error instanceof MessageTooLargeError) {
      const e = new KernelError('MESSAGE_TOO_LARGE', error.message, { pluginId: this.id, cause: error });
      this.lastError = { error: e, at: new Date() };
      this.deps.logger({ level: 'error', source: `plugin:${this.id}`, message: error.message });
    }
  }

  private onConnectionClosed(gen: number): void {
    const proc = this.proc;
    if (gen !== this.generation || !proc) return;
    // The pipe closes just before the exit event on a crash; prefer the exit status when it comes.
    const timer = setTimeout(() => {
      if (this.state === 'ready' || this.state === 'starting') {
        this.fatal(gen, new KernelError('PLUGIN_CRASHED', `plugin "${this.id}" closed its RPC channel`, { pluginId: this.id }));
      }
    }, 500);
    void proc.exited.then(() => clearTimeout(timer));
  }

  private onExit(gen: number, info: { code: number | null; signal: string | null }): void {
    if (gen !== this.generation) return;
    this.conn?.dispose();
    this.conn = undefined;
    const proc = this.proc;
    this.proc = undefined;
    if (proc) void killPlugin(proc); // reap grandchildren left in the group
    if (this.state === 'stopping' || this.state === 'stopped' || this.state === 'failed') return;
    const error = this.fatalError ?? this.crashError(info, this.state === 'starting' ? 'during start' : 'unexpectedly');
    this.inflight.rejectAll(error.code === 'PLUGIN_CRASHED' ? error : new KernelError('PLUGIN_CRASHED', error.message, { pluginId: this.id, cause: error }));
    this.lastError = { error, at: new Date() };
    if (this.crashes.record(Date.now())) {
      const windowS = Math.round(this.deps.restart.windowMs / 1000);
      this.markFailed(new KernelError('PLUGIN_FAILED', `plugin "${this.id}" crashed ${this.crashes.count} times within ${windowS} s and will not be restarted; last: ${error.message}`, { pluginId: this.id, cause: error }));
      return;
    }
    this.restarts += 1;
    const delay = this.crashes.backoffMs(this.crashes.count);
    this.setState('restarting');
    this.deps.logger({ level: 'warn', source: `plugin:${this.id}`, message: `${error.message}; restarting in ${delay} ms` });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.state === 'restarting') this.relaunch().catch(() => undefined); // the outcome is in status()
    }, delay);
    this.restartTimer.unref();
  }

  private markFailed(error: KernelError): void {
    this.lastError = { error, at: new Date() };
    this.setState('failed');
    this.deps.logger({ level: 'error', source: `plugin:${this.id}`, message: error.message });
  }

  private setState(state: PluginLifecycleState): void {
    if (this.state === state) return;
    this.state = state;
    this.deps.onChange();
  }

  /** Escalating shutdown; settles every in-flight call with PLUGIN_STOPPED first. */
  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    const proc = this.proc;
    const conn = this.state === 'ready' ? this.conn : undefined;
    const finalState = this.state === 'failed' ? 'failed' : 'stopped';
    if (proc) this.setState('stopping');
    this.inflight.rejectAll(new KernelError('PLUGIN_STOPPED', `plugin "${this.id}" was stopped`, { pluginId: this.id }));
    if (proc) {
      const step = await terminatePlugin(proc, conn, this.config.timeouts);
      this.deps.logger({ level: 'debug', source: `plugin:${this.id}`, message: `stopped (${step})` });
    }
    this.conn?.dispose();
    this.conn = undefined;
    this.setState(finalState);
  }

  status(): PluginStatus {
    const last = this.lastError;
    return {
      id: this.id,
      state: this.state,
      pid: this.proc?.pid,
      restarts: this.restarts,
      recentCrashes: this.crashes.count,
      lastError: last ? { code: last.error.code, message: last.error.message, at: last.at.toISOString() } : undefined,
      protocolVersion: this.protocolVersion,
      pluginVersion: this.pluginVersion,
      required: this.config.required,
      lazy: this.config.lazy,
      transport: this.config.transport,
      inflight: this.inflight.size,
      tools: this.contributes.tools.length,
      ...(this.components.length > 0 ? { components: this.components } : {}),
    };
  }
}
