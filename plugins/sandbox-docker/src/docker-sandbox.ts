import Docker from 'dockerode';
import type { ResolvedSandboxConfig } from '../../../sdk/sandbox/config.js';
import { HOT_CONTAINER_WINDOW_MS } from '../../../sdk/sandbox/constants.js';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import { MemorySandboxRegistry, type SandboxRegistry } from '../../../sdk/sandbox/registry.js';
import { runShell } from '../../../sdk/sandbox/shell/run.js';
import type { SandboxSecurityEnv } from '../../../sdk/sandbox/validate-security.js';
import { containerDrift } from './container-match.js';
import { DockerShell } from './docker-shell.js';
import { toSandboxError } from './engine-errors.js';
import { planDockerSandbox, type DockerSandboxPlan, type SandboxSessionContext } from './plan.js';

export interface DockerSandboxOptions {
  config: ResolvedSandboxConfig;
  /** Engine client; default: the local socket. */
  docker?: Docker;
  registry?: SandboxRegistry;
  logger?: Pick<Console, 'warn' | 'info'>;
  /** Extra labels on created containers (tests mark theirs for cleanup). */
  labels?: Record<string, string>;
  security?: SandboxSecurityEnv;
  now?: () => number;
}

export interface DockerSandboxHandle {
  plan: DockerSandboxPlan;
  /** The verified container, addressed by id: a container recreated under the same name is never used by mistake. */
  container: Docker.Container;
  shell: DockerShell;
  /** A new container was created by this call. */
  created: boolean;
}

/** Last-use writes closer together than this are skipped: prune and the hot window think in minutes. */
const TOUCH_RESOLUTION_MS = 1000;

/** The docker backend: ensures one verified container per scope and hands out shells into it. */
export class DockerSandbox {
  readonly docker: Docker;
  readonly registry: SandboxRegistry;
  private readonly inflight = new Map<string, Promise<DockerSandboxHandle>>();
  private readonly lastTouched = new Map<string, number>();

  constructor(readonly options: DockerSandboxOptions) {
    this.docker = options.docker ?? new Docker();
    this.registry = options.registry ?? new MemorySandboxRegistry();
  }

  private now() { return (this.options.now ?? Date.now)(); }

  /** Concurrent calls for one scope share one ensure, so they never race to create. */
  ensureContainer(ctx: SandboxSessionContext): Promise<DockerSandboxHandle> {
    let plan: DockerSandboxPlan;
    try {
      plan = planDockerSandbox(this.options.config, ctx, { labels: this.options.labels, security: this.options.security, now: this.now() });
    } catch (error) {
      return Promise.reject(error);
    }
    const pending = this.inflight.get(plan.name) ?? this.ensure(plan).finally(() => this.inflight.delete(plan.name));
    this.inflight.set(plan.name, pending);
    return pending;
  }

  private inspect(name: string): Promise<Docker.ContainerInspectInfo | undefined> {
    return this.docker.getContainer(name).inspect().catch((error: { statusCode?: number }) => {
      if (error?.statusCode === 404) return undefined;
      throw toSandboxError(error, `inspect container ${name}`);
    });
  }

  private async ensure(plan: DockerSandboxPlan): Promise<DockerSandboxHandle> {
    let info = await this.inspect(plan.name);
    if (info) info = await this.reuseOrDiscard(plan, info, await this.imageId(plan));
    let created = false;
    if (!info) {
      created = await this.create(plan);
      info = await this.inspect(plan.name);
      // Fresh from the engine and still not what was asked: the engine ignores options (a rootless
      // or remote engine, an old version); refusing beats running sessions with weaker fences.
      const drift = info ? containerDrift(plan.create, info, await this.imageId(plan)) : ['missing after create'];
      if (created && drift.length) {
        await this.docker.getContainer(plan.name).remove({ force: true }).catch(() => undefined);
        throw new SandboxError('SELF_TEST_FAILED', `The Docker engine created ${plan.name} differently from its plan (${drift.join(', ')}); it may ignore some options (rootless or remote engine, old version). Refusing to run sandboxed sessions in it.`);
      }
      if (!created && info) info = await this.reuseOrDiscard(plan, info, await this.imageId(plan));
      if (!info) throw new SandboxError('SANDBOX_GONE', `Sandbox container ${plan.name} vanished while it was being created; retry the call.`);
    }
    const container = this.docker.getContainer(info.Id);
    const shell = new DockerShell(container, plan.name);
    if (created) {
      // A failed setup must not leave a matching container behind, or it would be reused un-set-up.
      await this.runSetup(shell, plan).catch(async (error) => {
        await container.remove({ force: true }).catch(() => undefined);
        throw error;
      });
    }
    const prev = this.registry.get(plan.name);
    this.registry.set({
      name: plan.name, backendId: 'docker', scopeKey: plan.scopeKey, image: this.options.config.docker.image,
      createdAtMs: created || !prev ? this.now() : prev.createdAtMs, lastUsedAtMs: this.now(), configHash: plan.configHash,
    });
    return { plan, container, shell, created };
  }

  /**
   * An existing container is reused only when the engine's view matches the plan. Otherwise it
   * is removed (undefined: create a new one), unless a registry saw it used within the hot
   * window: then another process may be running commands in it, and it is neither handed out
   * nor killed. An unknown last use never counts as recent.
   */
  private async reuseOrDiscard(plan: DockerSandboxPlan, info: Docker.ContainerInspectInfo, imageId: string | undefined): Promise<Docker.ContainerInspectInfo | undefined> {
    const drift = containerDrift(plan.create, info, imageId);
    const container = this.docker.getContainer(info.Id);
    if (drift.length === 0) {
      if (info.State.Running) return info;
      await container.start().catch((e) => { throw toSandboxError(e, `start container ${plan.name}`); });
      return this.inspect(plan.name);
    }
    const lastUsed = this.registry.get(plan.name)?.lastUsedAtMs;
    if (info.State.Running && lastUsed !== undefined && this.now() - lastUsed < HOT_CONTAINER_WINDOW_MS) {
      const ago = Math.max(0, Math.round((this.now() - lastUsed) / 1000));
      throw new SandboxError('SANDBOX_IN_USE', `Sandbox container ${plan.name} runs a different configuration (${drift.join(', ')}) and was used ${ago}s ago, possibly by another Pincer process of this deployment; it is neither handed out nor removed while it may be in use. Stop that process or run: ${plan.recreateHint}. Otherwise it is replaced once it has been idle for ${HOT_CONTAINER_WINDOW_MS / 60_000} minutes.`, { data: { container: plan.name, drift } });
    }
    this.options.logger?.warn(`Sandbox container ${plan.name} does not match its configuration (${drift.join(', ')}); recreating it.`);
    await container.remove({ force: true }).catch((e: { statusCode?: number }) => {
      if (e?.statusCode !== 404) throw toSandboxError(e, `remove stale container ${plan.name}`);
    });
    return undefined;
  }

  /** The id the plan's image name stands for now; undefined when the engine cannot say (the create then reports it). */
  private imageId(plan: DockerSandboxPlan): Promise<string | undefined> {
    return this.docker.getImage(plan.create.Image!).inspect().then((i) => i.Id, () => undefined);
  }

  /** True when this call created the container; false when another process won the race for the name. */
  private async create(plan: DockerSandboxPlan): Promise<boolean> {
    const image = this.options.config.docker.image;
    let created: Docker.Container;
    try {
      created = await this.docker.createContainer(plan.create);
    } catch (error) {
      if ((error as { statusCode?: number })?.statusCode === 409) return false;
      throw toSandboxError(error, `create container ${plan.name}`, image);
    }
    await created.start().catch((e) => { throw toSandboxError(e, `start container ${plan.name}`, image); });
    return true;
  }

  private async runSetup(shell: DockerShell, plan: DockerSandboxPlan): Promise<void> {
    const setup = this.options.config.docker.setupCommand?.trim();
    if (!setup) return;
    const r = await runShell(shell, { script: 'exec /bin/sh -lc "$1"', args: [setup], timeoutMs: 10 * 60_000 });
    if (r.exitCode !== 0) {
      throw new SandboxError('SETUP_FAILED', `Sandbox setupCommand failed in ${plan.name} (exit ${r.exitCode}${r.timedOut ? ', timed out' : ''}): ${r.stderr.toString().trim().slice(0, 500)}. Fix sandbox.docker.setupCommand, then run: ${plan.recreateHint}`);
    }
  }

  /** Marks the sandbox used now; the backend calls it on every operation so prune sees activity. */
  touch(name: string): void {
    const now = this.now();
    if (now - (this.lastTouched.get(name) ?? 0) < TOUCH_RESOLUTION_MS) return;
    this.lastTouched.set(name, now);
    this.registry.touch(name, now);
  }
}
