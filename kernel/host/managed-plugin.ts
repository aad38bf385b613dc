import path from 'node:path';
import type { MessageConnection, RequestType } from 'vscode-jsonrpc/node';
import { FramingError, InvalidMessageError, MessageTooLargeError, type Contributions, type PeerInfo, type PluginComponentStatus, type SkillsListChangedParams } from '../../protocol/index.js';
import { requestWithDeadline, InflightCalls, type DeadlineOptions } from './call.js';
import type { PluginConfig, RestartPolicy } from './config.js';
import type { DirectFailureHandler, WorkspaceHandler } from './connection.js';
import type { HostServices } from './host-services.js';
import { PLUGIN_DATA_DIR_ENV, ensurePluginDataDir, pluginDataDirPath } from './data-dir.js';
import { KernelError, isKernelError, toKernelError } from './errors.js';
import { performHandshake } from './handshake.js';
import { ping } from './liveness.js';
import type { HostLogger } from './logger.js';
import { loadManifest, manifestPath } from './manifest.js';
import { assertPluginLocation } from './plugin-location.js';
import { PluginLogSink } from './plugin-log.js';
import { startPluginProcess, type PluginProcess } from './plugin-process.js';
import { PluginTools } from './plugin-tools.js';
import type { SpawnedPlugin } from './spawn.js';
import type { PluginLifecycleState, PluginStatus } from './status.js';
import { CrashWindow, PERMANENT_START_ERRORS } from './supervise.js';
import { killPlugin, terminatePlugin } from './terminate.js';
import type { ToolOwners } from './tool-owners.js';
import type { Confiner, ConfinementStatus, LaunchPlan } from '../confine/confiner.js';
import type { PluginStateChange } from './decisions.js';

export interface ManagedPluginDeps {
  kernel: PeerInfo;
  logger: HostLogger;
  restart: RestartPolicy;
  inheritEnv?: readonly string[];
  workspace: () => WorkspaceHandler | undefined;
  directFailure?: () => DirectFailureHandler | undefined;
  services?: () => HostServices | undefined;
  /** Tool-name ownership across the host's plugins. */
  owners: ToolOwners;
  /** Directories agents can write (workspaces, sandbox mounts): no plugin may start from them. */
  workspaceRoots: readonly string[];
  /** Parent of every plugin's data directory. */
  stateDir: string;
  /** State or contributions changed (the host bumps its version, listeners refresh). */
  onChange: () => void;
  /** Builds each start's sandbox from the plugin's declaration (see kernel/confine). */
  confiner: Confiner;
  /** A skill source of this plugin announced a new version. */
  onSkillsChanged: (pluginId: string, change: SkillsListChangedParams) => void;
  /** Each lifecycle transition, with the error that caused it when it went wrong (the audit trail). */
  onStateChange?: (change: PluginStateChange) => void;
}

/** Whether the process exits within `ms` (already exited counts). */
function exitsWithin(proc: PluginProcess['proc'], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([proc.exited.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

/**
 * One supervised plugin: lazy → starting → ready, and on a crash restarting (with backoff) or
 * failed (after too many crashes in the window). Every call it carries settles.
 */
export class ManagedPlugin {
  state: PluginLifecycleState;
  readonly log: PluginLogSink;
  readonly tools: PluginTools;
  private proc: SpawnedPlugin | undefined;
  private conn: MessageConnection | undefined;
  private generation = 0;
  private starting: Promise<void> | undefined;
  private fatalError: KernelError | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private probing = false;
  private warnedLocation = false;
  private warnedConfinement = false;
  private plan: LaunchPlan | undefined;
  confinement: ConfinementStatus | undefined;
  private readonly crashes: CrashWindow;
  readonly inflight = new InflightCalls();
  restarts = 0;
  lastError: { error: KernelError; at: Date } | undefined;
  protocolVersion: number | undefined;
  pluginVersion: string | undefined;
  /** Spawn to handshake answer of the last successful start, in milliseconds. */
  startMs: number | undefined;
  /** The plugin's latest report on its own parts (MCP servers of the bridge, …); status only, no assembly change. */
  components: readonly PluginComponentStatus[] = [];

  constructor(readonly config: PluginConfig, private readonly deps: ManagedPluginDeps) {
    this.crashes = new CrashWindow(deps.restart);
    this.log = new PluginLogSink(config.id, deps.logger);
    this.tools = new PluginTools(config.id, config.timeouts, deps.owners, this.log, deps.onChange);
    this.state = config.lazy ? 'lazy' : 'stopped';
    try {
      this.checkLocation();
      if (!config.lazy) return;
      const file = manifestPath(config);
      if (!file) throw new KernelError('INVALID_MANIFEST', `plugin "${config.id}" is lazy but has no manifest (set "manifest" or ship pincer-plugin.json next to its module)`, { pluginId: config.id });
      const manifest = loadManifest(config, file);
      this.tools.replace(manifest.contributes, manifest.rawTools);
      this.pluginVersion = manifest.version;
      this.protocolVersion = manifest.protocolVersion;
    } catch (error) {
      this.markFailed(toKernelError(error, config.id, 'manifest'));
    }
  }

  get id(): string {
    return this.config.id;
  }

  get contributes(): Contributions {
    return this.tools.contributes;
  }

  /** Crashes inside the current crash window. */
  get recentCrashes(): number {
    return this.crashes.count;
  }

  /** Refuses a plugin whose code an agent could edit; an operator's override is logged loudly, once. */
  private checkLocation(): void {
    const danger = assertPluginLocation(this.config, this.startDir(), this.deps.workspaceRoots, this.log);
    if (danger && !this.warnedLocation) this.log.kernel('warn', danger);
    this.warnedLocation ||= danger !== undefined;
  }

  /** Where the process starts: the configured `cwd`, else its own data directory. */
  private startDir(): string {
    return this.config.cwd ? path.resolve(this.config.cwd) : pluginDataDirPath(this.deps.stateDir, this.id);
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
  request<P extends object, R>(type: RequestType<P, R, unknown>, params: P, options: DeadlineOptions, what: string): Promise<R> {
    return this.state === 'ready' && this.conn ? this.send(this.conn, type, params, options, what) : this.requestAfterStart(type, params, options, what);
  }

  private async requestAfterStart<P extends object, R>(type: RequestType<P, R, unknown>, params: P, options: DeadlineOptions, what: string): Promise<R> {
    if (this.state !== 'ready') await this.start();
    const conn = this.conn;
    if (!conn || this.state !== 'ready') throw this.refusal() ?? new KernelError('PLUGIN_NOT_READY', `plugin "${this.id}" is not ready`, { pluginId: this.id });
    return this.send(conn, type, params, options, what);
  }

  /** One promise chain, no async frame: the ready path is every call's. */
  private send<P extends object, R>(conn: MessageConnection, type: RequestType<P, R, unknown>, params: P, options: DeadlineOptions, what: string): Promise<R> {
    const gen = this.generation;
    return requestWithDeadline(conn, type, params, options, { pluginId: this.id, what, inflight: this.inflight }).catch((error: unknown) => {
      this.afterFailedRequest(gen, conn, error, what);
      throw error;
    });
  }

  /** A broken channel (EPIPE on write) is a crash; a missed deadline gets a liveness ping. */
  private afterFailedRequest(gen: number, conn: MessageConnection, error: unknown, what: string): void {
    if (!isKernelError(error) || gen !== this.generation || this.state !== 'ready') return;
    if (error.code === 'PLUGIN_CRASHED') this.fatal(gen, error);
    // Fire and forget, so nothing it throws may become an unhandled rejection of the kernel.
    else if (error.code === 'PLUGIN_TIMEOUT') this.probe(gen, conn, what).catch((cause: Error) => this.log.kernel('error', `liveness probe failed: ${cause.message}`));
  }

  private async probe(gen: number, conn: MessageConnection, what: string): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      const { pingMs } = this.config.timeouts;
      // Answered: only slow. Closed: the channel's close (or the exit) is the verdict, not silence.
      if ((await ping(conn, pingMs)) !== 'silent' || gen !== this.generation || this.state !== 'ready') return;
      const message = `plugin "${this.id}" did not answer a liveness ping within ${pingMs} ms after ${what} missed its deadline; restarting it`;
      this.fatal(gen, new KernelError('PLUGIN_UNRESPONSIVE', message, { pluginId: this.id }));
    } finally {
      this.probing = false;
    }
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
    const startedAt = performance.now();
    let started: PluginProcess;
    try {
      const cwd = this.startDir();
      this.checkLocation(); // at every start: the files may have been swapped for links into a workspace since
      const dataDir = ensurePluginDataDir(deps.stateDir, config.id);
      const confined = await this.planLaunch(dataDir, cwd);
      const env = { [PLUGIN_DATA_DIR_ENV]: dataDir };
      started = await startPluginProcess(config, { log: this.log, inheritEnv: deps.inheritEnv, workspace: deps.workspace, directFailure: deps.directFailure, services: deps.services }, { cwd, env, confined }, {
        onToolsChanged: (tools) => {
          if (gen === this.generation) this.tools.update(tools);
        },
        onSkillsChanged: (change) => {
          if (gen === this.generation) deps.onSkillsChanged(config.id, change);
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
      const { result, rawTools } = await Promise.race([
        performHandshake(conn, { pluginId: config.id, kernel: deps.kernel, settings: config.settings, timeoutMs: config.timeouts.handshakeMs }),
        died,
      ]);
      if (gen !== this.generation || this.state !== 'starting') throw new KernelError('PLUGIN_STOPPED', `plugin "${config.id}" was stopped while starting`, { pluginId: config.id });
      this.tools.replace(result.contributes, rawTools, result.capabilities);
      this.protocolVersion = result.protocolVersion;
      this.pluginVersion = result.plugin.version;
      this.startMs = Math.round(performance.now() - startedAt);
      this.setState('ready');
    } catch (cause) {
      const error = toKernelError(cause, config.id, 'start');
      // The pipe closed (or a write to it failed) under the handshake: the process is probably
      // dying. Unless the plugin gave a definite answer (a version refusal), give the exit event a
      // moment: a process that exits now crashed during start, and its exit handler records the
      // crash with the real status and applies the restart policy (never "permanent").
      if (error.code !== 'VERSION_MISMATCH' && (await exitsWithin(proc, error.code === 'PLUGIN_CRASHED' ? 1_000 : 300))) throw error;
      // Stopped meanwhile, or the exit handler already recorded this crash: nothing more to do.
      if (this.state !== 'starting' || this.closed) throw error;
      if (PERMANENT_START_ERRORS.has(error.code) && !error.retryable) {
        this.markFailed(error);
        await killPlugin(proc);
      } else this.fatal(gen, error);
      throw error;
    }
  }

  /** Decides (at every start: settings and bubblewrap may differ) how the process is sandboxed. */
  private async planLaunch(dataDir: string, cwd: string): Promise<{ wrapper: { file: string; args: string[]; seccomp?: Buffer }; env: Record<string, string> } | undefined> {
    await this.releasePlan();
    let plan: LaunchPlan;
    try {
      plan = await this.deps.confiner.plan(this.config, dataDir, cwd);
    } catch (error) {
      this.confinement = { mode: 'refused', detail: (error as Error).message };
      throw error;
    }
    this.plan = plan;
    this.confinement = plan.status;
    if (plan.status.warning && !this.warnedConfinement) this.log.kernel('warn', plan.status.warning);
    this.warnedConfinement ||= plan.status.warning !== undefined;
    return plan.mode === 'confined' ? { wrapper: { file: plan.bwrap, args: plan.args, seccomp: plan.seccomp }, env: plan.env } : undefined;
  }

  /** Ends what the last launch plan holds: its network proxy and its protected-path placeholders. */
  private async releasePlan(): Promise<void> {
    const plan = this.plan?.mode === 'confined' ? this.plan : undefined;
    this.plan = undefined;
    plan?.release();
    await plan?.proxy?.close();
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
    this.log.kernel('error', error.message);
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
      this.log.kernel('error', error.message);
    } else if (error instanceof InvalidMessageError) {
      // Well framed but undispatchable (a $/cancelRequest without an id): dropped, the plugin stays up.
      this.log.kernel('error', error.message);
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
    this.tools.cancelUpdate();
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
    this.log.kernel('warn', `${error.message}; restarting in ${delay} ms`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.state === 'restarting') this.relaunch().catch(() => undefined); // the outcome is in status()
    }, delay);
    this.restartTimer.unref();
  }

  private markFailed(error: KernelError): void {
    this.lastError = { error, at: new Date() };
    this.setState('failed');
    this.log.kernel('error', error.message);
  }

  private setState(state: PluginLifecycleState): void {
    if (this.state === state) return;
    const from = this.state;
    this.state = state;
    // Every path into these two states records lastError first; other states carry no error.
    const error = state === 'restarting' || state === 'failed' ? this.lastError?.error : undefined;
    this.deps.onStateChange?.({ pluginId: this.id, from, to: state, ...(error ? { error } : {}) });
    this.deps.onChange();
  }

  /** Escalating shutdown; settles every in-flight call with PLUGIN_STOPPED first. */
  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    this.tools.cancelUpdate();
    const proc = this.proc;
    const conn = this.state === 'ready' ? this.conn : undefined;
    const finalState = this.state === 'failed' ? 'failed' : 'stopped';
    if (proc) this.setState('stopping');
    this.inflight.rejectAll(new KernelError('PLUGIN_STOPPED', `plugin "${this.id}" was stopped`, { pluginId: this.id }));
    if (proc) {
      const step = await terminatePlugin(proc, conn, this.config.timeouts);
      this.log.kernel('debug', `stopped (${step})`);
    }
    this.conn?.dispose();
    this.conn = undefined;
    await this.releasePlan();
    this.setState(finalState);
  }

  /** The running process's pid, if any (cheaper than status() on a call path). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  status(): PluginStatus {
    const last = this.lastError;
    return {
      id: this.id,
      state: this.state,
      pid: this.proc?.pid,
      restarts: this.restarts,
      recentCrashes: this.recentCrashes,
      lastError: last ? { code: last.error.code, message: last.error.message, at: last.at.toISOString() } : undefined,
      protocolVersion: this.protocolVersion,
      pluginVersion: this.pluginVersion,
      ...(this.startMs === undefined ? {} : { startMs: this.startMs }),
      required: this.config.required,
      lazy: this.config.lazy,
      transport: this.config.transport,
      inflight: this.inflight.size,
      tools: this.contributes.tools.length,
      rejectedTools: [...this.tools.rejected],
      ...(this.confinement ? { confinement: this.confinement } : {}),
      ...(this.components.length > 0 ? { components: this.components } : {}),
    };
  }
}
