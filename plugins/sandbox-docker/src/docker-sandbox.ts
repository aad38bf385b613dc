import Docker from 'dockerode';
import type { ResolvedSandboxConfig } from '../../../sdk/sandbox/config.js';
import { HOT_CONTAINER_WINDOW_MS, SANDBOX_LABELS } from '../../../sdk/sandbox/constants.js';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import { MemorySandboxRegistry, type SandboxRegistry } from '../../../sdk/sandbox/registry.js';
import { runShell } from '../../../sdk/sandbox/shell/run.js';
import type { SandboxSecurityEnv } from '../../../sdk/sandbox/validate-security.js';
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
  container: Docker.Container;
  shell: DockerShell;
  /** A new container was created by this call. */
  created: boolean;
  /** The container runs an older config (kept because it was in use); see plan.recreateHint. */
  staleConfig: boolean;
}

/** The docker backend: ensures one container per scope and hands out shells into it. */
export class DockerSandbox {
  readonly docker: Docker;
  readonly registry: SandboxRegistry;
  private readonly inflight = new Map<string, Promise<DockerSandboxHandle>>();

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

  private async ensure(plan: DockerSandboxPlan): Promise<DockerSandboxHandle> {
    const container = this.docker.getContainer(plan.name);
    const info = await container.inspect().catch((error: { statusCode?: number }) => {
      if (error?.statusCode === 404) return undefined;
      throw toSandboxError(error, `inspect container ${plan.name}`);
    });
    let created = false;
    let staleConfig = false;
    if (info) {
      const current = info.Config.Labels?.[SANDBOX_LABELS.configHash] ?? this.registry.get(plan.name)?.configHash;
      const running = info.State.Running;
      if (current !== plan.configHash) {
        const lastUsed = this.registry.get(plan.name)?.lastUsedAtMs;
        if (running && (lastUsed === undefined || this.now() - lastUsed < HOT_CONTAINER_WINDOW_MS)) {
          staleConfig = true;
          this.options.logger?.warn(`Sandbox config changed for ${plan.name} (recently used). Recreate to apply: ${plan.recreateHint}`);
        } else {
          await container.remove({ force: true }).catch((e) => { throw toSandboxError(e, `remove stale container ${plan.name}`); });
          created = await this.create(plan);
        }
      } else if (!running) {
        await container.start().catch((e) => { throw toSandboxError(e, `start container ${plan.name}`); });
      }
    } else {
      created = await this.create(plan);
    }
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
      createdAtMs: created || !prev ? this.now() : prev.createdAtMs,
      lastUsedAtMs: this.now(),
      configHash: staleConfig ? (info?.Config.Labels?.[SANDBOX_LABELS.configHash] ?? prev?.configHash) : plan.configHash,
    });
    return { plan, container, shell, created, staleConfig };
  }

  private async create(plan: DockerSandboxPlan): Promise<true> {
    const image = this.options.config.docker.image;
    try {
      const c = await this.docker.createContainer(plan.create);
      await c.start();
    } catch (error) {
      throw toSandboxError(error, `create container ${plan.name}`, image);
    }
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

  /** Marks the scope used now (the kernel calls this per call so prune sees activity). */
  touch(name: string): void {
    const e = this.registry.get(name);
    if (e) this.registry.set({ ...e, lastUsedAtMs: this.now() });
  }
}
