/**
 * Sandbox backends against the stock clients, measured side by side in one run:
 * container cold start vs reuse; `exec true` through DockerWorkspace vs `docker exec`
 * from the CLI; a file read through the guarded bridge vs `docker exec cat`; SSH exec
 * through SshWorkspace vs the `ssh` client. Needs the real services
 * (test/sandbox/setup-services.sh). Run: `npx tsc -p tsconfig.json && node dist/bench/sandbox.bench.js`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { DockerSandbox } from '../plugins/sandbox-docker/src/docker-sandbox.js';
import { DockerWorkspace } from '../plugins/sandbox-docker/src/docker-workspace.js';
import { SshWorkspace } from '../plugins/sandbox-ssh/src/ssh-workspace.js';
import { resolveSandboxConfig } from '../sdk/sandbox/config.js';
import { runShell } from '../sdk/sandbox/shell/run.js';
import { measure, ratio } from './lib/measure.js';

const run = promisify(execFile);
const IMAGE = process.env.PINCER_BENCH_IMAGE ?? 'pincer-test:busybox';
const LABELS = { 'pincer.bench': '1' };
const SSHD = process.env.PINCER_SSHD_DIR ?? '/tmp/pincer-sshd';

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pincer-bench-'));
  writeFileSync(join(dir, 'hello.txt'), 'hello world\n'.repeat(100));
  return dir;
}

export async function runSandboxBench(options: { timeMs?: number } = {}): Promise<Record<string, unknown>> {
  const timeMs = options.timeMs ?? 1500;
  const docker = new Docker();
  const config = resolveSandboxConfig({ scope: 'session', workspaceAccess: 'rw', docker: { image: IMAGE, containerPrefix: 'pincer-bench-' } });
  const sandbox = new DockerSandbox({ config, docker, labels: LABELS });
  const dir = workspace();
  const ws = await DockerWorkspace.open(sandbox, { sessionKey: 'bench', agentId: 'main', workspaceDir: dir });
  const name = ws.containerName;
  let cold = 0;
  const report: Record<string, unknown> = {};
  try {
    const start = await measure({
      'cold start (create+start+remove)': async () => {
        const h = await sandbox.ensureContainer({ sessionKey: `bench-cold-${cold++}`, agentId: 'main', workspaceDir: dir });
        await h.container.remove({ force: true });
      },
      'reuse (ensure existing)': () => sandbox.ensureContainer({ sessionKey: 'bench', agentId: 'main', workspaceDir: dir }),
    }, { timeMs });
    const exec = await measure({
      'DockerWorkspace.exec(true)': () => ws.exec('true'),
      'raw dockerode exec (no guard)': () => runShell(ws.handle.shell, { script: 'true' }),
      'docker exec CLI': () => run('docker', ['exec', name, 'true']),
    }, { timeMs });
    const read = await measure({
      'DockerWorkspace.read': () => ws.read('hello.txt'),
      'docker exec cat (CLI)': () => run('docker', ['exec', name, 'cat', '/workspace/hello.txt']),
    }, { timeMs });
    report.docker = {
      start, exec, read,
      ratios: {
        coldOverReuse: ratio(start['cold start (create+start+remove)'], start['reuse (ensure existing)']),
        execOverCli: ratio(exec['DockerWorkspace.exec(true)'], exec['docker exec CLI']),
        rawExecOverCli: ratio(exec['raw dockerode exec (no guard)'], exec['docker exec CLI']),
        readOverCli: ratio(read['DockerWorkspace.read'], read['docker exec cat (CLI)']),
      },
    };
  } finally {
    const list = await docker.listContainers({ all: true, filters: { label: ['pincer.bench=1'] } });
    await Promise.all(list.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
  }

  const knownHosts = join(mkdtempSync(join(tmpdir(), 'pincer-bench-kh-')), 'known_hosts');
  writeFileSync(knownHosts, `[127.0.0.1]:2222 ${readFileSync(join(SSHD, 'host_ed25519.pub'), 'utf8')}`);
  const key = join(SSHD, 'id_ed25519');
  const ssh = await SshWorkspace.open({ host: '127.0.0.1', port: 2222, user: 'root', privateKeyPath: key, knownHostsPaths: [knownHosts], remoteRoot: '/tmp/pincer-ssh-bench' }, { sessionKey: 'bench', agentId: 'main', workspaceDir: dir });
  try {
    const sshExec = await measure({
      'SshWorkspace.exec(true)': () => ssh.exec('true'),
      'ssh client (new connection)': () => run('ssh', ['-q', '-o', 'BatchMode=yes', '-o', `UserKnownHostsFile=${knownHosts}`, '-i', key, '-p', '2222', 'root@127.0.0.1', 'true']),
    }, { timeMs });
    report.ssh = { exec: sshExec, ratios: { execOverClient: ratio(sshExec['SshWorkspace.exec(true)'], sshExec['ssh client (new connection)']) } };
  } finally {
    await ssh.close();
  }
  return report;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runSandboxBench();
  for (const [backend, r] of Object.entries(report) as Array<[string, Record<string, unknown>]>) {
    const rows = Object.entries(r).filter(([k]) => k !== 'ratios').flatMap(([, m]) => Object.values(m as Record<string, { name: string; medianUs: number; samples: number }>));
    console.log(`\n${backend}`);
    console.table(rows.map((m) => ({ task: m.name, 'median (ms)': (m.medianUs / 1000).toFixed(2), samples: m.samples })));
    console.log('ratios', r.ratios);
  }
}
