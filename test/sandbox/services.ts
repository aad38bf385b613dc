import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import type { SshSettings } from '../../plugins/sandbox-ssh/src/settings.js';

/**
 * Detects the real Docker engine and sshd the sandbox tests need. In CI they must be
 * there (a missing service fails the run); locally the suites skip with a loud reason.
 */
export const IN_CI = process.env.CI === 'true';
export const TEST_IMAGE = 'pincer-test:busybox';
export const RUN_LABEL = { 'pincer.test': '1' };

async function dockerProblem(): Promise<string | null> {
  const docker = new Docker();
  try { await docker.ping(); } catch (e) { return `Docker engine unreachable (${(e as Error).message})`; }
  try { await docker.getImage(TEST_IMAGE).inspect(); } catch { return `image ${TEST_IMAGE} missing`; }
  return null;
}

const sshDir = process.env.PINCER_SSHD_DIR ?? '/tmp/pincer-sshd';
export const SSH_HOST = process.env.PINCER_SSH_HOST ?? '127.0.0.1';
export const SSH_PORT = Number(process.env.PINCER_SSH_PORT ?? 2222);
export const SSH_USER = process.env.PINCER_SSH_USER ?? 'root';
export const SSH_KEY = process.env.PINCER_SSH_KEY ?? join(sshDir, 'id_ed25519');
export const SSH_HOST_PUB = join(sshDir, 'host_ed25519.pub');

async function sshProblem(): Promise<string | null> {
  if (!existsSync(SSH_KEY) || !existsSync(SSH_HOST_PUB)) return `no sshd key material in ${sshDir}`;
  const open = await new Promise<boolean>((resolve) => {
    const s = connect(SSH_PORT, SSH_HOST, () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
  return open ? null : `nothing listens on ${SSH_HOST}:${SSH_PORT}`;
}

async function gate(name: string, problem: string | null): Promise<boolean> {
  if (!problem) return true;
  const fix = 'run: bash test/sandbox/setup-services.sh';
  if (IN_CI) throw new Error(`${name} is required in CI but unavailable: ${problem}. ${fix}`);
  console.warn(`\n!!! SKIPPING ${name} sandbox tests: ${problem}. To run them, ${fix}\n`);
  return false;
}

export const HAS_DOCKER = await gate('Docker', await dockerProblem());
export const HAS_SSH = await gate('SSH', await sshProblem());

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `pincer-${prefix}-`));
}

/** A known_hosts file trusting the test sshd's host key. */
export function knownHostsFile(): string {
  const file = join(tempDir('kh'), 'known_hosts');
  writeFileSync(file, `[${SSH_HOST}]:${SSH_PORT} ${readFileSync(SSH_HOST_PUB, 'utf8')}`);
  return file;
}

export function sshSettings(extra: Partial<SshSettings> = {}): SshSettings {
  return { host: SSH_HOST, port: SSH_PORT, user: SSH_USER, privateKeyPath: SSH_KEY, knownHostsPaths: [knownHostsFile()], remoteRoot: '/tmp/pincer-ssh-test', ...extra };
}

/** Removes every container our tests labelled (also leftovers of earlier runs). */
export async function removeTestContainers(): Promise<void> {
  const docker = new Docker();
  const list = await docker.listContainers({ all: true, filters: { label: ['pincer.test=1'] } }).catch(() => []);
  await Promise.all(list.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
}

export function sh(cmd: string): string {
  return execFileSync('sh', ['-c', cmd], { encoding: 'utf8' });
}
