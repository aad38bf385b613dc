import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';
import { scratch, text } from '../redteam/helpers.js';

/**
 * ATTACKS by a confined plugin (a real child process under bubblewrap). Its manifest declares
 * the workspace read-write, the env name PROBE_OK, no network, no spawn. Each attack must fail
 * on the host; the same attack by the same plugin started `dangerouslyUnconfined` succeeds,
 * so a failure here is the sandbox's doing.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const PROBE = path.join(ROOT, 'dist/test/fixtures/plugins/confine-probe.js');
const stateDir = scratch('confine-state');
const ws = scratch('confine-ws');
const outside = scratch('confine-outside');
const homeSecret = path.join(os.homedir(), `.pincer-confine-secret-${process.pid}`);
const manifests = scratch('confine-manifests');
/** The typed denial: its code, the plugin's name and what it tried (quotes are JSON-escaped in the text). */
const DENIED = /CONFINEMENT_DENIED[\s\S]*plugin \\?"attacker\\?" tried to/;
let server: net.Server;
let port = 0;

function manifest(id: string): string {
  const file = path.join(manifests, `${id}.json`);
  const body = {
    id,
    version: '1.0.0',
    protocolVersion: 1,
    contributes: { tools: [], sandboxBackends: [], skillSources: [], hooks: [] },
    confinement: { filesystem: [{ path: '${workspace}', access: 'rw' }], network: 'none', spawn: false, env: ['PROBE_OK'] },
  };
  writeFileSync(file, JSON.stringify(body));
  return file;
}

function config(unconfined: boolean): PincerConfig {
  const entry = (id: string, env: Record<string, string>) => ({ id, module: PROBE, manifest: manifest(id), env, ...(unconfined ? { dangerouslyUnconfined: true } : {}) });
  return {
    plugins: [entry('attacker', { PROBE_OK: 'declared' }), entry('victim', { VICTIM_SECRET: 'victim-secret-value' })],
    agents: { list: [{ id: 'main', workspace: ws }] },
  } as PincerConfig;
}

/** Host pid of a process whose environment holds `marker` (the victim, seen from outside). */
function pidWithEnv(marker: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').includes(marker)) return Number(entry);
    } catch {
      // gone, or not ours
    }
  }
  return undefined;
}

async function withProbe<T>(unconfined: boolean, run: (probe: (op: string, target: string, extra?: object) => Promise<{ text: string; isError: boolean }>, kernel: Kernel) => Promise<T>): Promise<T> {
  const kernel = createKernel(config(unconfined), { logger: () => undefined, cwd: scratch('confine-cwd') });
  await kernel.start();
  try {
    const tools = kernel.assembleTools({ agentId: 'main' });
    await tools.execute('victim_probe', { op: 'env', target: 'VICTIM_SECRET' }); // the victim is running
    return await run(async (op, target, extra = {}) => {
      const result = await tools.execute('attacker_probe', { op, target, ...extra });
      return { text: text(result), isError: result.isError === true };
    }, kernel);
  } finally {
    await kernel.stop();
  }
}

beforeAll(async () => {
  process.env.PINCER_STATE_DIR = stateDir;
  writeFileSync(homeSecret, 'home-secret-value');
  mkdirSync(path.join(stateDir, 'plugins', 'victim'), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(stateDir, 'plugins', 'victim', 'token'), 'victim-data-value');
  // A probe may close its end first (a reset): the test's server must not throw over it.
  server = net.createServer((s) => s.on('error', () => undefined).end('served\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(() => {
  rmSync(homeSecret, { force: true });
  server?.close();
});

const attacks = (victimPid: () => number | undefined) => [
  { name: "reads another plugin's data directory", op: 'read', target: path.join(stateDir, 'plugins', 'victim', 'token'), secret: 'victim-data-value' },
  { name: "reads another plugin's environment", op: 'read', target: `/proc/${victimPid()}/environ`, secret: 'victim-secret-value' },
  // environ is fixed at exec: any variable of the kernel's stands for its secrets.
  { name: "reads the kernel's environment", op: 'read', target: `/proc/${process.pid}/environ`, secret: 'PATH=' },
  { name: "reads the user's home", op: 'read', target: homeSecret, secret: 'home-secret-value' },
  { name: 'reaches the Docker socket', op: 'connect', target: '/var/run/docker.sock', secret: 'connected', skip: !existsSync('/var/run/docker.sock') },
  { name: 'opens a TCP socket it did not declare', op: 'connect', target: '127.0.0.1', port: () => port, secret: 'connected' },
  { name: 'starts a process it did not declare', op: 'spawn', target: '/bin/echo', secret: '' },
];

describe.skipIf(process.platform !== 'linux')('a confined plugin', () => {
  it('the control: started dangerouslyUnconfined, the same plugin gets every secret', async () => {
    await withProbe(true, async (probe) => {
      const victim = pidWithEnv('VICTIM_SECRET=victim-secret-value');
      for (const attack of attacks(() => victim).filter((a) => !a.skip && a.op !== 'spawn')) {
        const seen = await probe(attack.op, attack.target, attack.port ? { port: attack.port() } : {});
        expect(seen.text, attack.name).toContain(attack.secret);
      }
      expect((await probe('spawn', '/bin/echo')).isError).toBe(false);
    });
  }, 120_000);

  it('is refused every attack, with an error naming the plugin and what it tried', async () => {
    await withProbe(false, async (probe, kernel) => {
      expect(kernel.plugins().find((p) => p.id === 'attacker')?.confinement?.mode).toBe('confined');
      const victim = pidWithEnv('VICTIM_SECRET=victim-secret-value');
      expect(victim).toBeDefined();
      for (const attack of attacks(() => victim).filter((a) => !a.skip)) {
        const seen = await probe(attack.op, attack.target, attack.port ? { port: attack.port() } : {});
        expect(seen.isError, `${attack.name}: ${seen.text}`).toBe(true);
        if (attack.secret) expect(seen.text, attack.name).not.toContain(attack.secret);
        if (attack.op !== 'connect' || attack.port) expect(seen.text, attack.name).toMatch(DENIED);
      }
    });
  }, 120_000);

  it('writes only inside what it declared: the workspace yes, a host directory and /usr no', async () => {
    await withProbe(false, async (probe) => {
      expect((await probe('write', path.join(ws, 'allowed.txt'))).isError).toBe(false);
      expect(readFileSync(path.join(ws, 'allowed.txt'), 'utf8')).toBe('written by the probe');
      const denied = await probe('write', path.join(outside, 'escaped.txt'));
      expect(denied.text).toMatch(DENIED);
      expect(existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
      const system = await probe('write', `/usr/local/pincer-escape-${process.pid}`);
      expect(system.text).toMatch(DENIED);
      expect(system.text).toContain('tried to write');
      expect(existsSync(`/usr/local/pincer-escape-${process.pid}`)).toBe(false);
      expect((await probe('env', 'PROBE_OK')).text).toContain('declared');
    });
  }, 120_000);
});

describe.skipIf(process.platform !== 'linux')('a confined plugin that declares named hosts', () => {
  it('reaches a declared host:port through the kernel proxy, is refused any other, and cannot go around it', async () => {
    const other = net.createServer((s) => s.on('error', () => undefined).end('other-service\n'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as net.AddressInfo).port;
    const file = path.join(manifests, 'netprobe.json');
    writeFileSync(file, JSON.stringify({ id: 'netprobe', version: '1.0.0', protocolVersion: 1, contributes: { tools: [], sandboxBackends: [], skillSources: [], hooks: [] }, confinement: { network: { hosts: [`127.0.0.1:${port}`] } } }));
    const denied: string[] = [];
    const kernel = createKernel({ plugins: [{ id: 'netprobe', module: PROBE, manifest: file }], agents: { list: [{ id: 'main', workspace: ws }] } } as PincerConfig, {
      logger: (e) => void (e.message.includes('confinement:') && denied.push(e.message)),
      cwd: scratch('confine-cwd'),
    });
    await kernel.start();
    try {
      const tools = kernel.assembleTools({ agentId: 'main' });
      const call = async (op: string, p: number) => text(await tools.execute('netprobe_probe', { op, target: '127.0.0.1', port: p }));
      expect(await call('proxy', port)).toMatch(/200[\s\S]*served/);
      expect(await call('proxy', otherPort)).toContain('403');
      expect(await call('connect', otherPort)).toMatch(DENIED_NET);
      expect(denied.some((m) => m.includes(`tried to connect to 127.0.0.1:${otherPort}`))).toBe(true);
    } finally {
      await kernel.stop();
      other.close();
    }
  }, 120_000);
});

const DENIED_NET = /CONFINEMENT_DENIED[\s\S]*plugin \\?"netprobe\\?" tried to connect to 127\.0\.0\.1/;
