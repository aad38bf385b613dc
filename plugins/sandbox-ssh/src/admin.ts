/**
 * The ssh backend's operator methods. `check`: one real connection per agent's settings, which
 * verifies the host key (known_hosts or the pinned key; never accepted silently) and
 * authenticates, then closes.
 */
import type { SandboxAdminAgent, SandboxCheckStep } from '../../../protocol/index.js';
import type { HandlerContext, SandboxAdminHandlers } from '../../../sdk/plugin-api.js';
import { SshConnection } from './connection.js';
import { DEFAULT_PRUNE_IDLE_HOURS, DEFAULT_PRUNE_MAX_AGE_DAYS } from '../../../sdk/sandbox/constants.js';
import { sshPluginDataDir } from './data-dir.js';
import { pruneRemoteCopiesOf } from './prune.js';
import { SshSettingsSchema, type SshSettings } from './settings.js';

/** The same defaults as the docker backend's prune rule. */
const DEFAULT_PRUNE = { idleHours: DEFAULT_PRUNE_IDLE_HOURS, maxAgeDays: DEFAULT_PRUNE_MAX_AGE_DAYS };

async function checkOne(settings: Record<string, unknown>): Promise<{ ok: boolean; checks: SandboxCheckStep[] }> {
  const checks: SandboxCheckStep[] = [];
  const parsed = SshSettingsSchema.safeParse({ ...settings, connectAttempts: 1 });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `sandbox.ssh.${i.path.join('.')}: ${i.message}`).join('; ');
    checks.push({ name: 'settings', ok: false, detail: `ssh settings are incomplete or invalid: ${problems}` });
    return { ok: false, checks };
  }
  const s = parsed.data;
  checks.push({ name: 'settings', ok: true, detail: `${s.user}@${s.host}:${s.port}` });
  const connection = new SshConnection(s);
  try {
    await connection.connected();
    const how = s.hostKey ? 'the pinned sandbox.ssh.hostKey' : 'known_hosts';
    checks.push({ name: 'connect', ok: true, detail: `connected and authenticated; host key trusted via ${how}` });
    return { ok: true, checks };
  } catch (error) {
    const code = (error as { code?: string }).code;
    checks.push({ name: code === 'HOST_KEY_REJECTED' ? 'host-key' : 'connect', ok: false, detail: (error as Error).message, ...(code ? { code } : {}) });
    return { ok: false, checks };
  } finally {
    connection.close();
  }
}

export function sshAdmin(): SandboxAdminHandlers {
  const settingsFor = (ctx: HandlerContext, agent: SandboxAdminAgent | undefined) => ({
    ...((ctx.settings as { ssh?: object }).ssh ?? {}),
    ...((agent?.config as { ssh?: object } | undefined)?.ssh ?? {}),
  });
  return {
    check: ({ agents }, ctx) => checkOne(settingsFor(ctx, agents[0])),
    // Copies no live plugin process holds, idle or old past the rule, once per distinct ssh target (plugin settings, then each agent's overrides).
    async prune({ agents, idleHours, maxAgeDays }, ctx) {
      const rule = { idleHours: idleHours ?? DEFAULT_PRUNE.idleHours, maxAgeDays: maxAgeDays ?? DEFAULT_PRUNE.maxAgeDays };
      if (rule.idleHours <= 0 && rule.maxAgeDays <= 0) return { rule, removed: [] };
      const targets = [settingsFor(ctx, undefined), ...agents.map((a) => settingsFor(ctx, a))] as SshSettings[];
      return { rule, removed: await pruneRemoteCopiesOf(targets, rule, sshPluginDataDir()) };
    },
  };
}
