/**
 * The CLI's only import of the docker backend plugin. The operator commands act on the Docker
 * engine directly (list, remove, probe containers) rather than through a running kernel, so
 * they use the plugin's library surface; keeping that import in this one file keeps the
 * CLI → plugin dependency visible and replaceable.
 */
import Docker from 'dockerode';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { JsonFileSandboxRegistry, MemorySandboxRegistry, type SandboxRegistry } from '../../sdk/sandbox/registry.js';
import type { ResolvedSandboxConfig } from '../../sdk/sandbox/config.js';
import type { RecreateTarget, SandboxInfo } from '../../sdk/sandbox/lifecycle.js';
import {
  REGISTRY_FILE,
  listSandboxes,
  planDockerSandbox,
  pluginDataDir,
  pruneSandboxes,
  recreateSandboxes,
  runDockerSelfTest,
  sandboxContainerName,
  type LifecycleDeps,
  type SelfTestReport,
} from '../../plugins/sandbox-docker/src/index.js';
import type { PincerConfig } from '../kernel.js';
import { engineError } from './engine.js';
import { agentIds, agentWorkspaceDir, dockerConfig, registryPathSetting } from './settings.js';

export type { SandboxInfo, RecreateTarget, SelfTestReport };

/** This config's deployment on the engine: which containers are its own, and where it records last use. */
export interface DockerTarget {
  deploymentId: string;
  expectedNames: (info: SandboxInfo) => readonly string[];
  registryPath?: string;
}

export interface DockerEngine {
  docker: Docker;
  /** Where the engine is reached, for error messages: `unix:///var/run/docker.sock` or `tcp://…`. */
  endpoint: string;
}

/** The engine client the plugin would use: `$DOCKER_HOST`, else the local socket (which the client finds lazily). */
export async function connectDocker(): Promise<DockerEngine> {
  const docker = new Docker();
  const modem = docker.modem as unknown as { getSocketPath(): Promise<string | undefined>; host?: string; port?: string | number; protocol?: string };
  const socket = await modem.getSocketPath().catch(() => undefined);
  const endpoint = socket ? `unix://${socket}` : `${modem.protocol ?? 'tcp'}://${modem.host}:${modem.port}`;
  return { docker, endpoint };
}

const SCOPES = new Set(['session', 'agent', 'shared']);

/**
 * The names this config gives a listed container: computed from its labels (scope, scope key,
 * agent) and this config's deployment, prefix and agent workspace, exactly as the backend
 * names it. A `shared` sandbox may belong to any agent of the config.
 */
export function dockerTarget(config: PincerConfig, cwd: string, env: NodeJS.ProcessEnv): DockerTarget {
  const agents = agentIds(config);
  const expectedNames = (info: SandboxInfo): string[] => {
    if (!info.scope || !SCOPES.has(info.scope)) return [];
    const scope = info.scope as 'session' | 'agent' | 'shared';
    const candidates = scope === 'shared' ? agents : agents.filter((a) => a === info.agentId);
    return candidates.map((agentId) => sandboxContainerName(dockerConfig(config, agentId), { sessionKey: info.scopeKey, agentId, workspaceDir: agentWorkspaceDir(config, agentId, cwd) }, scope));
  };
  const defaultRegistry = join(pluginDataDir('sandbox-docker', env), REGISTRY_FILE);
  return { deploymentId: dockerConfig(config).deploymentId, expectedNames, registryPath: registryPathSetting(config, cwd) ?? (existsSync(defaultRegistry) ? defaultRegistry : undefined) };
}

/** Runs a lifecycle call; any failure (engine, corrupt registry) becomes the CLI's error with the endpoint. */
async function withDeps<T>(engine: DockerEngine, target: DockerTarget, call: (deps: LifecycleDeps) => Promise<T>): Promise<T> {
  try {
    const registry: SandboxRegistry = target.registryPath ? new JsonFileSandboxRegistry(target.registryPath) : new MemorySandboxRegistry();
    return await call({ docker: engine.docker, deploymentId: target.deploymentId, expectedNames: target.expectedNames, registry });
  } catch (error) {
    throw engineError(error, engine.endpoint);
  }
}

export function listDockerSandboxes(engine: DockerEngine, target: DockerTarget): Promise<SandboxInfo[]> {
  return withDeps(engine, target, listSandboxes);
}

export function recreateDockerSandboxes(engine: DockerEngine, target: DockerTarget, what: RecreateTarget): Promise<string[]> {
  return withDeps(engine, target, (deps) => recreateSandboxes(deps, what));
}

export function pruneDockerSandboxes(engine: DockerEngine, target: DockerTarget, rule: { idleHours: number; maxAgeDays: number }): Promise<string[]> {
  return withDeps(engine, target, (deps) => pruneSandboxes(deps, rule));
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
