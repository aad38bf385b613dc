/**
 * The ssh backend's part of `pincer sandbox check`: one real connection, which verifies the
 * host key (known_hosts or the pinned key; never accepted silently) and authenticates, then
 * closes. Like docker-lifecycle.ts, this is the CLI's one import of the ssh plugin's library:
 * the check talks to the remote host directly instead of through a running kernel.
 */
import { SshConnection, SshSettingsSchema } from '../../plugins/sandbox-ssh/src/index.js';
import type { BackendCheck } from './check-types.js';

export async function checkSsh(settings: Record<string, unknown> | undefined): Promise<BackendCheck> {
  const result: BackendCheck = { backend: 'ssh', ok: false, checks: [] };
  const parsed = SshSettingsSchema.safeParse({ ...settings, connectAttempts: 1 });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `sandbox.ssh.${i.path.join('.')}: ${i.message}`).join('; ');
    result.checks.push({ name: 'settings', ok: false, detail: `ssh settings are incomplete or invalid: ${problems}` });
    return result;
  }
  const s = parsed.data;
  result.checks.push({ name: 'settings', ok: true, detail: `${s.user}@${s.host}:${s.port}` });
  const connection = new SshConnection(s);
  try {
    await connection.connected();
    const how = s.hostKey ? 'the pinned sandbox.ssh.hostKey' : 'known_hosts';
    result.checks.push({ name: 'connect', ok: true, detail: `connected and authenticated; host key trusted via ${how}` });
    result.ok = true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    result.checks.push({ name: code === 'HOST_KEY_REJECTED' ? 'host-key' : 'connect', ok: false, detail: (error as Error).message, code });
  } finally {
    connection.close();
  }
  return result;
}
