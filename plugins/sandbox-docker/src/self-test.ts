import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import type { ResolvedSandboxConfig } from '../../../sdk/sandbox/config.js';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import { MemorySandboxRegistry } from '../../../sdk/sandbox/registry.js';
import { runShell } from '../../../sdk/sandbox/shell/run.js';
import { DockerSandbox } from './docker-sandbox.js';
import { toSandboxError } from './engine-errors.js';

export interface SelfTestReport { checks: Array<{ name: string; ok: boolean; detail: string }> }

// Each probe prints one token, read from the kernel's own mount table inside the container
// (a failed `touch` would also mean "no permission" for a non-root user, which proves nothing).
const PROBE = [
  'ro() { grep -qE "^[^ ]+ $1 [^ ]+ ro[ ,]" /proc/mounts; }',
  'ro / && echo root-ro || echo root-writable',
  'ro "$1/skills" && echo skills-ro || echo skills-writable',
  'dmesg 2>/dev/null | grep -q gVisor && echo kernel-gvisor || echo kernel-host',
].join('\n');

/** The configured runtime is registered with the engine (else every create would fail later, less clearly). */
async function checkRuntime(docker: Docker, runtime: string): Promise<void> {
  const info = (await docker.info().catch((e) => {
    throw toSandboxError(e, 'read the engine info');
  })) as { Runtimes?: Record<string, unknown> };
  const known = Object.keys(info.Runtimes ?? {});
  if (!known.includes(runtime)) {
    throw new SandboxError('CONFIG_INVALID', `sandbox.docker.runtime "${runtime}" is not registered with the Docker engine (it has: ${known.join(', ') || 'none'}). Register it in /etc/docker/daemon.json ("runtimes"), then reload dockerd, or remove sandbox.docker.runtime.`);
  }
}

/**
 * Startup self-test of the docker backend. Fails closed: the first failing check throws
 * a SandboxError that says what is wrong and how to fix it (engine unreachable, image
 * missing, protected paths writable). Creates and removes one throwaway container.
 */
export async function runDockerSelfTest(docker: Docker, config: ResolvedSandboxConfig, labels: Record<string, string> = {}): Promise<SelfTestReport> {
  const checks: SelfTestReport['checks'] = [];
  await docker.ping().catch((e) => { throw toSandboxError(e, 'reach the engine (ping)'); });
  checks.push({ name: 'engine', ok: true, detail: 'docker engine answers' });
  await docker.getImage(config.docker.image).inspect().catch((e) => {
    throw toSandboxError(Object.assign(e ?? {}, { statusCode: 404, json: { message: 'No such image' } }), 'inspect the sandbox image', config.docker.image);
  });
  checks.push({ name: 'image', ok: true, detail: `image ${config.docker.image} present` });
  const runtime = config.docker.runtime;
  if (runtime !== undefined) await checkRuntime(docker, runtime);

  const dir = mkdtempSync(join(tmpdir(), 'pincer-selftest-'));
  mkdirSync(join(dir, 'skills'));
  // The probe checks the engine, not the operator's binds (they are judged against the real
  // workspace by the security validation); a throwaway workspace has none of their sources.
  const probe = { ...config, scope: 'session' as const, workspaceAccess: 'rw' as const, docker: { ...config.docker, binds: [], setupCommand: undefined } };
  const sandbox = new DockerSandbox({ config: probe, docker, registry: new MemorySandboxRegistry(), labels: { ...labels, 'pincer.selfTest': '1' } });
  try {
    const handle = await sandbox.ensureContainer({ sessionKey: `selftest-${process.pid}-${Date.now()}`, agentId: 'selftest', workspaceDir: dir });
    try {
      const r = await runShell(handle.shell, { script: PROBE, args: [config.docker.workdir], timeoutMs: 30_000 });
      const out = r.stdout.toString();
      const bad: string[] = [];
      if (config.docker.readOnlyRoot && !out.includes('root-ro')) bad.push('the container root filesystem is writable (readOnlyRoot is not in effect)');
      if (!out.includes('skills-ro')) bad.push(`${config.docker.workdir}/skills is writable although skill mounts must be read-only`);
      if (bad.length) {
        throw new SandboxError('SELF_TEST_FAILED', `Docker sandbox self-test failed: ${bad.join('; ')}. The engine may ignore read-only mounts (rootless/remote engine or an old version); refusing to run sandboxed sessions on it.`);
      }
      checks.push({ name: 'protected-paths', ok: true, detail: 'root filesystem and skills are read-only inside the container' });
      if (runtime === 'runsc' && !out.includes('kernel-gvisor')) {
        throw new SandboxError('SELF_TEST_FAILED', 'Docker sandbox self-test failed: sandbox.docker.runtime is "runsc" but the container does not run on gVisor\'s kernel (its dmesg does not name gVisor).');
      }
      if (runtime !== undefined) checks.push({ name: 'runtime', ok: true, detail: `containers run with runtime ${runtime}${out.includes('kernel-gvisor') ? ' (gVisor kernel inside)' : ''}` });
    } finally {
      await handle.container.remove({ force: true }).catch(() => undefined);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { checks };
}
