/**
 * Each configured sandbox backend through the same self-test as `pincer sandbox check`: docker's
 * security validation, engine, image and read-only probe; ssh's connection with the host key
 * verified. Each failing step gets the fix its code calls for.
 */
import { resolve } from 'node:path';
import type { ConfigSource } from '../config-source.js';
import type { KernelApi, PincerConfig } from '../kernel.js';
import { runSandboxCheck } from '../sandbox/check.js';
import type { BackendCheck, CheckStep } from '../sandbox/check-types.js';
import { line, type DoctorLine } from './types.js';

const FIXES: Record<string, string> = {
  IMAGE_MISSING: "build it with 'pincer sandbox image build', or set sandbox.docker.image to an image the engine has",
  BACKEND_UNAVAILABLE: 'start the Docker engine, or set DOCKER_HOST to where it listens (and "inheritEnv": ["DOCKER_HOST"] on the sandbox-docker entry)',
  SECURITY_VIOLATION: 'change the setting named above to a safe value',
  HOST_KEY_REJECTED: "compare the server's key fingerprint out of band, then add it to ~/.ssh/known_hosts or pin it as sandbox.ssh.hostKey",
  AUTH_FAILED: 'check sandbox.ssh.user and privateKeyPath (or agent), and that the key is in the server\'s authorized_keys',
  BACKEND_MISSING: 'add the backend\'s plugin entry (pincer init --sandbox non-main writes one)',
  SELF_TEST_FAILED: "the image must keep its root read-only: rebuild it with 'pincer sandbox image build'",
};

function fixFor(backend: BackendCheck, step: CheckStep): string {
  if (step.code && FIXES[step.code]) return FIXES[step.code]!;
  if (backend.backend === 'ssh' && step.name === 'settings') return 'complete the sandbox-ssh plugin settings (host, user, privateKeyPath or agent)';
  return "see 'pincer sandbox check' for the whole report";
}

/** Each backend's self-test is its plugin's (`sandbox/admin/check`), asked through a quiet kernel of its own. */
async function selfTests(api: KernelApi, config: PincerConfig, source: ConfigSource, cwd: string): Promise<BackendCheck[]> {
  const kernel = api.createKernel(config, { logger: () => undefined, cwd, configPath: 'path' in source ? resolve(cwd, source.path) : undefined });
  try {
    await kernel.start();
    return (await runSandboxCheck(kernel, config, undefined, cwd)).backends;
  } finally {
    await kernel.stop().catch(() => undefined);
  }
}

export async function checkBackends(api: KernelApi, config: PincerConfig, source: ConfigSource, cwd: string): Promise<DoctorLine[]> {
  const backends = await selfTests(api, config, source, cwd).catch((error: unknown): BackendCheck[] => [
    { backend: 'sandbox', ok: false, checks: [{ name: 'kernel', ok: false, detail: `the kernel does not start: ${(error as Error).message}` }] },
  ]);
  if (backends.length === 0) return [line('backends', 'sandbox', 'skip', 'no agent is sandboxed (sandbox mode off) and no docker or ssh backend plugin is configured')];
  return backends.flatMap((backend) =>
    backend.checks.map((step) => {
      const subject = `${backend.backend} ${step.name}`;
      if (backend.checked === false) return line('backends', subject, 'skip', step.detail);
      return step.ok ? line('backends', subject, 'ok', step.detail) : line('backends', subject, 'fail', step.detail, fixFor(backend, step));
    }),
  );
}
