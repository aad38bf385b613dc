/**
 * The docker backend's operator methods (`pincer sandbox list | recreate | prune | check | image
 * build`), served by the plugin itself so the CLI reaches them through the kernel like any other
 * backend's. The agents in each request carry the layer the kernel sends at `sandbox/prepare`,
 * so names and config hashes are computed exactly as a session's prepare computes them.
 */
import Docker from 'dockerode';
import type { SandboxAdminAgent, SandboxCheckStep, SandboxListing } from '../../../protocol/index.js';
import type { HandlerContext, SandboxAdminHandlers } from '../../../sdk/plugin-api.js';
import { resolveSandboxConfig, type DockerBackendSettings, type ResolvedSandboxConfig, type SandboxSettings } from '../../../sdk/sandbox/config.js';
import { DEFAULT_SANDBOX_IMAGE } from '../../../sdk/sandbox/constants.js';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import type { SandboxInfo } from '../../../sdk/sandbox/lifecycle.js';
import { buildSandboxImage, shippedDockerfile } from './image-build.js';
import { listSandboxes, pruneSandboxes, recreateSandboxes, type LifecycleDeps } from './lifecycle.js';
import { planDockerSandbox, sandboxContainerName } from './plan.js';
import { openDockerRegistry } from './registry-location.js';
import { runDockerSelfTest } from './self-test.js';

interface AgentLayer { sandbox?: SandboxSettings }

const SCOPES = new Set(['session', 'agent', 'shared']);
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'EACCES', 'ETIMEDOUT', 'EHOSTUNREACH']);
const ENGINE_FIX = 'Start the engine (e.g. `sudo systemctl start docker`, or `bash scripts/services/start-docker.sh` from a Pincer checkout for the test engine); set DOCKER_HOST (and pass it to the plugin with inheritEnv) if it listens elsewhere.';

/** The engine client and where it is reached, for messages: `unix:///var/run/docker.sock` or `tcp://…`. */
async function connect(docker: Docker | undefined): Promise<{ docker: Docker; endpoint: string }> {
  const client = docker ?? new Docker();
  const modem = client.modem as unknown as { getSocketPath(): Promise<string | undefined>; host?: string; port?: string | number; protocol?: string };
  const socket = await modem.getSocketPath().catch(() => undefined);
  return { docker: client, endpoint: socket ? `unix://${socket}` : `${modem.protocol ?? 'tcp'}://${modem.host}:${modem.port}` };
}

function unreachable(error: unknown): string | undefined {
  const e = (error ?? {}) as { code?: string; cause?: { code?: string } };
  return UNREACHABLE.has(e.cause?.code ?? '') ? e.cause!.code : UNREACHABLE.has(e.code ?? '') ? e.code : undefined;
}

/** Any engine failure, with the endpoint that was tried; an unreachable engine also says how to fix it. */
function engineFailure(error: unknown, endpoint: string): SandboxError {
  const why = unreachable(error) ?? (error instanceof SandboxError && error.code === 'BACKEND_UNAVAILABLE' && /unreachable/.test(error.message) ? 'no answer' : undefined);
  if (why) return new SandboxError('BACKEND_UNAVAILABLE', `Docker engine unreachable at ${endpoint} (${why}). ${ENGINE_FIX}`, { cause: error, data: { endpoint } });
  if (error instanceof SandboxError) return error;
  return new SandboxError('BACKEND_UNAVAILABLE', `${(error as Error)?.message ?? String(error)} (engine at ${endpoint})`, { cause: error, data: { endpoint } });
}

function resolvedFor(settings: DockerBackendSettings, agent: SandboxAdminAgent | undefined): ResolvedSandboxConfig {
  return resolveSandboxConfig(settings, (agent?.config as AgentLayer | undefined)?.sandbox ?? {});
}

/** The names this config gives a listed container, from its labels, exactly as the backend names it; a `shared` one may be any agent's. */
function expectedNames(settings: DockerBackendSettings, agents: readonly SandboxAdminAgent[]) {
  return (info: SandboxInfo): string[] => {
    if (!info.scope || !SCOPES.has(info.scope)) return [];
    const scope = info.scope as 'session' | 'agent' | 'shared';
    const candidates = scope === 'shared' ? agents : agents.filter((a) => a.agentId === info.agentId);
    return candidates.map((a) => sandboxContainerName(resolvedFor(settings, a), { sessionKey: info.scopeKey, agentId: a.agentId, workspaceDir: a.workspaceDir }, scope));
  };
}

/** Whether a container still runs the config its scope gets now; null when that cannot be computed (e.g. the config would be refused). */
function configMatches(settings: DockerBackendSettings, agents: readonly SandboxAdminAgent[], info: SandboxInfo): boolean | null {
  const agent = agents.find((a) => a.agentId === info.agentId) ?? agents[0];
  if (!info.configHash || !agent) return null;
  try {
    return planDockerSandbox(resolvedFor(settings, agent), { sessionKey: info.scopeKey, agentId: agent.agentId, workspaceDir: agent.workspaceDir }).configHash === info.configHash;
  } catch {
    return null;
  }
}

/** The self-test raises at its first failure; these steps must have passed before it. */
const PASSED_BEFORE: Record<string, string[]> = { BACKEND_UNAVAILABLE: [], IMAGE_MISSING: ['engine'], SELF_TEST_FAILED: ['engine', 'image'] };
const FAILED_STEP: Record<string, string> = { BACKEND_UNAVAILABLE: 'engine', IMAGE_MISSING: 'image', SELF_TEST_FAILED: 'protected-paths' };

export function dockerAdmin(deps: { docker?: Docker; env?: NodeJS.ProcessEnv }): SandboxAdminHandlers {
  const settingsOf = (ctx: HandlerContext) => ctx.settings as DockerBackendSettings;
  const withDeps = async <T>(ctx: HandlerContext, agents: readonly SandboxAdminAgent[], run: (d: LifecycleDeps) => Promise<T>): Promise<T> => {
    const settings = settingsOf(ctx);
    const engine = await connect(deps.docker);
    const registry = openDockerRegistry(settings.registryPath, deps.env ?? process.env);
    const deploymentId = resolvedFor(settings, undefined).deploymentId;
    return run({ docker: engine.docker, deploymentId, expectedNames: expectedNames(settings, agents), registry }).catch((error: unknown) => {
      throw engineFailure(error, engine.endpoint);
    });
  };
  return {
    list: ({ agents }, ctx) =>
      withDeps(ctx, agents, async (d) => ({
        sandboxes: (await listSandboxes(d)).map(({ deploymentId: _d, ...info }): SandboxListing => ({ ...info, configMatches: configMatches(settingsOf(ctx), agents, info) })),
      })),
    recreate: ({ agents, target }, ctx) => withDeps(ctx, agents, async (d) => ({ removed: await recreateSandboxes(d, target) })),
    prune: ({ agents, idleHours, maxAgeDays }, ctx) => {
      const defaults = resolvedFor(settingsOf(ctx), agents[0]).prune;
      const rule = { idleHours: idleHours ?? defaults.idleHours, maxAgeDays: maxAgeDays ?? defaults.maxAgeDays };
      if (rule.idleHours <= 0 && rule.maxAgeDays <= 0) return { rule, removed: [] };
      return withDeps(ctx, agents, async (d) => ({ rule, removed: await pruneSandboxes(d, rule) }));
    },
    async check({ agents }, ctx) {
      const resolved = resolvedFor(settingsOf(ctx), agents[0]);
      const engine = await connect(deps.docker);
      const checks: SandboxCheckStep[] = [];
      try {
        const report = await runDockerSelfTest(engine.docker, resolved);
        checks.push(...report.checks.map((c) => (c.name === 'engine' ? { ...c, detail: `${c.detail} at ${engine.endpoint}` } : c)));
        return { ok: true, checks };
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'UNKNOWN';
        const down = unreachable(error) !== undefined || code === 'BACKEND_UNAVAILABLE';
        for (const name of down ? [] : (PASSED_BEFORE[code] ?? ['engine', 'image'])) {
          checks.push({ name, ok: true, detail: name === 'engine' ? `docker engine answers at ${engine.endpoint}` : `image ${resolved.docker.image} present` });
        }
        const detail = down ? engineFailure(error, engine.endpoint).message : (error as Error).message;
        checks.push({ name: down ? 'engine' : (FAILED_STEP[code] ?? 'probe'), ok: false, detail, code: down ? 'BACKEND_UNAVAILABLE' : code });
        return { ok: false, checks };
      }
    },
    async imageBuild({ tag, dockerfile }, ctx) {
      const engine = await connect(deps.docker);
      const wanted = tag ?? DEFAULT_SANDBOX_IMAGE;
      const file = dockerfile ?? shippedDockerfile();
      ctx.log.info(`Building ${wanted} from ${file} on ${engine.endpoint}`);
      const result = await buildSandboxImage(engine.docker, { tag: wanted, dockerfile: file, onProgress: (line) => ctx.log.info(line) }).catch((error: unknown) => {
        throw engineFailure(error, engine.endpoint);
      });
      return { tag: result.tag, ...(result.imageId ? { imageId: result.imageId } : {}), dockerfile: file };
    },
  };
}
