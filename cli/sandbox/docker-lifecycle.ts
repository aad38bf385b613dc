/**
 * The CLI's only import of the docker backend plugin. The operator commands act on the Docker
 * engine directly (list, remove, probe containers) rather than through a running kernel, so
 * they use the plugin's library surface; keeping that import in this one file keeps the
 * CLI → plugin dependency visible and replaceable.
 */
import Docker from 'dockerode';
import { JsonFileSandboxRegistry, MemorySandboxRegistry, type SandboxRegistry } from '../../sdk/sandbox/registry.js';
import type { ResolvedSandboxConfig } from '../../sdk/sandbox/config.js';
import type { RecreateTarget, SandboxInfo } from '../../sdk/sandbox/lifecycle.js';
import {
  listSandboxes,
  planDockerSandbox,
  pruneSandboxes,
  recreateSandboxes,
  runDockerSelfTest,
  type LifecycleDeps,
  type SelfTestReport,
} from '../../plugins/sandbox-docker/src/index.js';
import { engineError } from './engine.js';

export type { SandboxInfo, RecreateTarget, SelfTestReport };

export interface DockerTarget {
  /** Only containers whose name starts with one of these belong to this config. */
  prefixes: readonly string[];
  /** The plugin's JSON registry (last-used times); in-memory when unset. */
  registryPath?: string;
}

export interface DockerEngine {
  docker: Docker;
  /** Where the engine is reached, for error messages: `unix:///var/run/docker.sock` or `tcp://…`. */
  endpoint: string;
}

/** The engine client the plugin would use: `$DOCKER_HOST`, else the local socket. */
export function connectDocker(): DockerEngine {
  const docker = new Docker();
  const modem = docker.modem as { socketPath?: string; host?: string; port?: string | number; protocol?: string };
  const endpoint = modem.socketPath ? `unix://${modem.socketPath}` : `${modem.protocol ?? 'tcp'}://${modem.host}:${modem.port}`;
  return { docker, endpoint };
}

/**
 * A view of the engine whose container listing is limited to this config's prefixes. The
 * library selects by the `pincer.sandbox` label only, which would let one config's command
 * remove another deployment's (or a test run's) containers on a shared engine.
 */
function scoped(docker: Docker, prefixes: readonly string[]): Docker {
  const mine = (names: string[]) => names.some((n) => prefixes.some((p) => n.replace(/^\//, '').startsWith(p)));
  return Object.assign(Object.create(docker) as Docker, {
    listContainers: async (options: Docker.ContainerListOptions) => (await docker.listContainers(options)).filter((c) => mine(c.Names)),
  });
}

function deps(engine: DockerEngine, target: DockerTarget): LifecycleDeps {
  const registry: SandboxRegistry = target.registryPath ? new JsonFileSandboxRegistry(target.registryPath) : new MemorySandboxRegistry();
  return { docker: scoped(engine.docker, target.prefixes), registry };
}

export async function listDockerSandboxes(engine: DockerEngine, target: DockerTarget): Promise<SandboxInfo[]> {
  return listSandboxes(deps(engine, target)).catch((e) => { throw engineError(e, engine.endpoint); });
}

export async function recreateDockerSandboxes(engine: DockerEngine, target: DockerTarget, what: RecreateTarget): Promise<string[]> {
  return recreateSandboxes(deps(engine, target), what).catch((e) => { throw engineError(e, engine.endpoint); });
}

export async function pruneDockerSandboxes(engine: DockerEngine, target: DockerTarget, rule: { idleHours: number; maxAgeDays: number }): Promise<string[]> {
  return pruneSandboxes(deps(engine, target), rule).catch((e) => { throw engineError(e, engine.endpoint); });
}

/** Fails closed by throwing the plugin's SandboxError; the caller turns it into a failed check. */
export function dockerSelfTest(engine: DockerEngine, config: ResolvedSandboxConfig): Promise<SelfTestReport> {
  return runDockerSelfTest(engine.docker, config);
}

/**
 * The config hash a container for this scope would get under the current config, or undefined
 * when it cannot be computed here (e.g. the config would be refused by security validation).
 */
export function expectedConfigHash(config: ResolvedSandboxConfig, info: SandboxInfo, workspaceDir: string): string | undefined {
  try {
    return planDockerSandbox(config, { sessionKey: info.scopeKey, agentId: info.agentId ?? 'main', workspaceDir }).configHash;
  } catch {
    return undefined;
  }
}
