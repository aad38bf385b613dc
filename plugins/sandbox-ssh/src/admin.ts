/**
 * The ssh backend's operator methods. `check`: one real connection per agent's settings, which
 * verifies the host key (known_hosts or the pinned key; never accepted silently) and
 * authenticates, then closes.
 */
import type { SandboxAdminAgent, SandboxCheckStep } from '../../../protocol/index.js';
import type { HandlerContext, SandboxAdminHandlers } from '../../../sdk/plugin-api.js';
import { SshConnection } from './connection.js';
import { SshSettingsSchema } from './settings.js';

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
  };
}
