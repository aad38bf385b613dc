/**
 * `pincer sandbox check`: the self-test of every configured backend, failing closed. The docker
 * settings are first judged by the security validation (no container is made for a config that
 * would be refused); then each backend's plugin runs its own self-test (`sandbox/admin/check`)
 * through the kernel. A backend whose plugin declares no self-test is reported as not checked,
 * never as passed. Every plugin's module or command is resolved first, as `pincer config check`
 * does: a plugin that cannot start fails the check with the path to fix.
 */
import { checkPluginEntries, type PluginProblem } from '../check/plugin-resolution.js';
import type { Kernel, PincerConfig } from '../kernel.js';
import { adminFailureCode, adminFailureMessage } from './admin-call.js';
import type { BackendCheck, CheckStep } from './check-types.js';
import { auditDockerSandboxes } from './audit.js';
import { agentSandbox, configuredBackends } from './settings.js';

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

async function checkBackend(kernel: Kernel, config: PincerConfig, backend: string, agentId: string | undefined, cwd: string): Promise<BackendCheck> {
  const checks: CheckStep[] = [];
  if (backend === 'docker') {
    checks.push(securityStep(config, agentId, cwd));
    if (!checks[0]!.ok) return { backend, ok: false, checks };
  }
  try {
    const report = await kernel.sandboxAdmin('check', { backend, agentId });
    return { backend, ok: report.ok, checks: [...checks, ...report.checks] };
  } catch (error) {
    const code = adminFailureCode(error);
    if (code === 'CAPABILITY_NOT_SUPPORTED') {
      // The plugin serves the backend but declares no self-test: the CLI cannot vouch for it.
      checks.push({ name: 'backend', ok: true, detail: `the plugin serving backend "${backend}" declares no self-test (sandbox/admin/check); not checked` });
      return { backend, ok: checks.every((c) => c.ok), checked: false, checks };
    }
    const missing = /no plugin provides the sandbox backend/.test(adminFailureMessage(error));
    checks.push({ name: 'backend', ok: false, code: missing ? 'BACKEND_MISSING' : (code ?? 'BACKEND_UNAVAILABLE'), detail: adminFailureMessage(error) });
    return { backend, ok: false, checks };
  }
}

export interface CheckOutcome {
  /** Set when `--agent` names an agent whose sandbox mode is off: no backend to check. */
  skipped?: string;
  /** Plugin entries whose module or command does not resolve (as `pincer config check` reports them). */
  plugins: PluginProblem[];
  backends: BackendCheck[];
}

export async function runSandboxCheck(kernel: Kernel, config: PincerConfig, agentId: string | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<CheckOutcome> {
  const plugins = checkPluginEntries(config, cwd, env);
  if (agentId !== undefined && (agentSandbox(config, agentId).mode ?? 'off') === 'off') return { skipped: `sandbox mode is off for agent "${agentId}"`, plugins, backends: [] };
  const backends: BackendCheck[] = [];
  // Sequential: each docker probe creates a container, and the output reads in config order.
  for (const backend of configuredBackends(config, agentId)) {
    backends.push({ ...(await checkBackend(kernel, config, backend, agentId, cwd)), ...(agentId ? { agent: agentId } : {}) });
  }
  return { plugins, backends };
}
