/**
 * `pincer sandbox check`: the startup self-test of every configured backend, failing closed.
 * Each backend yields a BackendCheck; a backend the CLI cannot test is reported as not
 * checked rather than passed.
 */
import type { PincerConfig } from '../kernel.js';
import type { BackendCheck, CheckStep } from './check-types.js';
import { auditDockerSandboxes } from './audit.js';
import { connectDocker, dockerSelfTest } from './docker-lifecycle.js';
import { ENGINE_FIX, isEngineUnreachable, unreachableMessage } from './engine.js';
import { agentSandbox, configuredBackends, dockerConfig, pluginSettings } from './settings.js';
import { checkSsh } from './ssh-check.js';

/** The self-test raises at its first failure; these are the steps that must have passed before it. */
const PASSED_BEFORE: Record<string, string[]> = {
  BACKEND_UNAVAILABLE: [],
  IMAGE_MISSING: ['engine'],
  SELF_TEST_FAILED: ['engine', 'image'],
};
const FAILED_STEP: Record<string, string> = { BACKEND_UNAVAILABLE: 'engine', IMAGE_MISSING: 'image', SELF_TEST_FAILED: 'protected-paths' };

/**
 * The settings step: every agent's docker settings (or the one agent's) as the backend would
 * judge them at prepare time. A refusal here fails the backend before any container is made.
 */
function securityStep(config: PincerConfig, agentId: string | undefined, cwd: string): CheckStep {
  const { issues, warnings } = auditDockerSandboxes(config, cwd, agentId);
  if (issues.length) {
    const code = issues.find((i) => i.code)?.code ?? 'CONFIG_INVALID';
    return { name: 'security', ok: false, code, detail: issues.map((i) => `${i.path}: ${i.message}`).join('\n') };
  }
  const overrides = warnings.length ? `; dangerous overrides in effect: ${warnings.map((w) => w.path).join(', ')}` : '';
  return { name: 'security', ok: true, detail: `binds, network, profiles, capabilities and user pass the security validation${overrides}` };
}

async function checkDocker(config: PincerConfig, agentId: string | undefined, cwd: string): Promise<BackendCheck> {
  const result: BackendCheck = { backend: 'docker', ok: false, checks: [securityStep(config, agentId, cwd)] };
  if (!result.checks[0]!.ok) return result;
  const resolved = dockerConfig(config, agentId);
  const engine = await connectDocker();
  try {
    const report = await dockerSelfTest(engine, resolved);
    result.checks.push(...report.checks.map((c) => (c.name === 'engine' ? { ...c, detail: `${c.detail} at ${engine.endpoint}` } : c)));
    result.ok = true;
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'UNKNOWN';
    const unreachable = isEngineUnreachable(error);
    for (const name of unreachable ? [] : (PASSED_BEFORE[code] ?? ['engine', 'image'])) {
      result.checks.push({ name, ok: true, detail: name === 'engine' ? `docker engine answers at ${engine.endpoint}` : `image ${resolved.docker.image} present` });
    }
    const detail = unreachable ? `${unreachableMessage(engine.endpoint, error)}. ${ENGINE_FIX}` : (error as Error).message;
    result.checks.push({ name: unreachable ? 'engine' : (FAILED_STEP[code] ?? 'probe'), ok: false, detail, code });
  }
  return result;
}

function missingPlugin(backend: string): BackendCheck {
  const step: CheckStep = {
    name: 'backend', ok: false, code: 'BACKEND_MISSING',
    detail: `the config selects sandbox backend "${backend}" but has no "sandbox-${backend}" plugin entry; add it to plugins (or set the backend to one that is loaded)`,
  };
  return { backend, ok: false, checks: [step] };
}

async function checkBackend(config: PincerConfig, backend: string, agentId: string | undefined, cwd: string): Promise<BackendCheck> {
  if (backend === 'docker' || backend === 'ssh') {
    const settings = pluginSettings(config, `sandbox-${backend}`);
    if (settings === undefined) return missingPlugin(backend);
    if (backend === 'docker') return checkDocker(config, agentId, cwd);
    return checkSsh({ ...(settings.ssh as object), ...agentSandbox(config, agentId).ssh });
  }
  // A third-party backend's plugin owns its self-test; the CLI cannot vouch for it.
  const step: CheckStep = { name: 'backend', ok: true, detail: `no CLI self-test for backend "${backend}"; not checked` };
  return { backend, ok: true, checked: false, checks: [step] };
}

export interface CheckOutcome {
  /** Set when `--agent` names an agent whose sandbox mode is off: nothing to check. */
  skipped?: string;
  backends: BackendCheck[];
}

export async function runSandboxCheck(config: PincerConfig, agentId: string | undefined, cwd: string): Promise<CheckOutcome> {
  if (agentId !== undefined && (agentSandbox(config, agentId).mode ?? 'off') === 'off') {
    return { skipped: `sandbox mode is off for agent "${agentId}"`, backends: [] };
  }
  const backends: BackendCheck[] = [];
  // Sequential: each docker probe creates a container, and the output reads in config order.
  for (const backend of configuredBackends(config, agentId)) {
    backends.push({ ...(await checkBackend(config, backend, agentId, cwd)), ...(agentId ? { agent: agentId } : {}) });
  }
  return { backends };
}
