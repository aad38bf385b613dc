/**
 * The ssh backend's workspace sync and warm exec against the stock tools, side by side in one
 * run on the real sshd (test/sandbox/setup-services.sh), reported as ratios:
 * - first sync of 10, 1,000 and 10,000 small files and of one 200 MB file: `SshWorkspace.open`
 *   (connect, copy, check) vs `tar | ssh tar` (what the backend did before) and `rsync -a`;
 * - re-sync after changing one file: the push before a call vs `tar | ssh tar` of everything
 *   again and `rsync -a` again;
 * - a warm `exec true` vs an OpenSSH command over a multiplexed (ControlMaster) connection.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/ssh-sync.bench.js [10 1000 10000 200mb exec]`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { SshWorkspace } from '../plugins/sandbox-ssh/src/ssh-workspace.js';
import type { SshSettings } from '../plugins/sandbox-ssh/src/settings.js';
import { measure, ratio } from './lib/measure.js';

const run = promisify(execFile);
const SSHD = process.env.PINCER_SSHD_DIR ?? '/tmp/pincer-sshd';
const KEY = join(SSHD, 'id_ed25519');
const REMOTE = `/tmp/pincer-ssh-bench-${process.pid}`;
const MB = 1024 * 1024;

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), `pincer-bench-${prefix}-`));

function knownHosts(): string {
  const file = join(temp('kh'), 'known_hosts');
  writeFileSync(file, `[127.0.0.1]:2222 ${readFileSync(join(SSHD, 'host_ed25519.pub'), 'utf8')}`);
  return file;
}

function tree(kind: string): string {
  const dir = temp(kind);
  if (kind === '200mb') {
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(200 * MB, 7));
    return dir;
  }
  const count = Number(kind);
  for (let i = 0; i < count; i++) {
    const sub = join(dir, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(sub);
    writeFileSync(join(sub, `f${i}.txt`), `${i}`.padEnd(1024, '.'));
  }
  return dir;
}

/** The one file a re-sync finds changed. */
const changedFile = (dir: string, kind: string) => (kind === '200mb' ? join(dir, 'big.bin') : join(dir, 'd0', 'f0.txt'));

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function median(times: number, fn: (i: number) => Promise<number>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await fn(i));
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]!);
}

function hasRsync(): boolean {
  try {
    execFileSync('rsync', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function syncScenario(kind: string, settings: SshSettings, kh: string, repeats: number): Promise<Record<string, unknown>> {
  const dir = tree(kind);
  const sshArgs = ['-q', '-o', 'BatchMode=yes', '-o', `UserKnownHostsFile=${kh}`, '-i', KEY, '-p', '2222'];
  const tarOnce = (target: string) => run('sh', ['-c', `tar -cf - -C "$1" . | ssh ${sshArgs.join(' ')} root@127.0.0.1 "rm -rf $2 && mkdir -p $2 && tar -xf - -C $2"`, 'sh', dir, target], { maxBuffer: 1 << 20 });
  const rsyncOnce = (target: string) => run('rsync', ['-a', '-e', `ssh ${sshArgs.join(' ')}`, `${dir}/`, `root@127.0.0.1:${target}/`]);
  const ms: Record<string, number> = {};
  ms.oursFirst = await median(repeats, (i) => timed(async () => {
    const ws = await SshWorkspace.open({ ...settings, remoteRoot: `${REMOTE}/first-${kind}-${i}` }, { sessionKey: 'bench', agentId: 'main', workspaceDir: dir, workspaceAccess: 'rw' }, { dataDir: temp('data') });
    await ws.close();
  }));
  ms.tarFirst = await median(repeats, (i) => timed(() => tarOnce(`${REMOTE}/tar-${kind}-${i}`)));
  if (hasRsync()) ms.rsyncFirst = await median(repeats, (i) => timed(() => rsyncOnce(`${REMOTE}/rsync-${kind}-${i}`)));
  const ws = await SshWorkspace.open({ ...settings, remoteRoot: `${REMOTE}/resync-${kind}` }, { sessionKey: 'bench', agentId: 'main', workspaceDir: dir, workspaceAccess: 'rw' }, { dataDir: temp('data') });
  try {
    const copy = ws.copies[0]!.copy;
    const touch = (i: number) => writeFileSync(changedFile(dir, kind), kind === '200mb' ? Buffer.alloc(200 * MB, i) : `changed ${i}`.padEnd(1024, '.'));
    ms.oursResync = await median(repeats, async (i) => { touch(i); return timed(() => copy.fresh()); });
    ms.oursNothingChanged = await median(repeats, () => timed(() => copy.fresh()));
    ms.tarResync = await median(repeats, async (i) => { touch(i + 100); return timed(() => tarOnce(`${REMOTE}/tar-${kind}-0`)); });
    if (hasRsync()) ms.rsyncResync = await median(repeats, async (i) => { touch(i + 200); return timed(() => rsyncOnce(`${REMOTE}/rsync-${kind}-0`)); });
  } finally {
    await ws.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const r = (a: number, b: number | undefined) => (b ? Math.round((a / b) * 100) / 100 : undefined);
  return {
    ms,
    ratios: {
      firstOverTar: r(ms.oursFirst!, ms.tarFirst), firstOverRsync: r(ms.oursFirst!, ms.rsyncFirst),
      resyncOverTar: r(ms.oursResync!, ms.tarResync), resyncOverRsync: r(ms.oursResync!, ms.rsyncResync),
    },
  };
}

async function execScenario(settings: SshSettings, kh: string, timeMs: number): Promise<Record<string, unknown>> {
  const dir = temp('exec');
  writeFileSync(join(dir, 'hello.txt'), 'hello\n');
  const control = join(temp('mux'), 'ctl');
  const base = ['-q', '-o', 'BatchMode=yes', '-o', `UserKnownHostsFile=${kh}`, '-i', KEY, '-p', '2222', '-S', control];
  await run('ssh', [...base, '-M', '-f', '-N', '-o', 'ControlPersist=120', 'root@127.0.0.1']);
  const ws = await SshWorkspace.open({ ...settings, remoteRoot: `${REMOTE}/exec` }, { sessionKey: 'bench', agentId: 'main', workspaceDir: dir, workspaceAccess: 'rw' }, { dataDir: temp('data') });
  try {
    const exec = await measure({
      'SshWorkspace.exec(true), warm': () => ws.exec('true'),
      'ssh over a ControlMaster connection': () => run('ssh', [...base, 'root@127.0.0.1', 'true']),
    }, { timeMs });
    return { exec, ratios: { execOverMultiplexedSsh: ratio(exec['SshWorkspace.exec(true), warm']!, exec['ssh over a ControlMaster connection']!) } };
  } finally {
    await ws.close();
    await run('ssh', [...base, '-O', 'exit', 'root@127.0.0.1']).catch(() => undefined);
  }
}

export async function runSshSyncBench(which: readonly string[] = ['10', '1000', '10000', '200mb', 'exec'], options: { repeats?: number; timeMs?: number } = {}): Promise<Record<string, unknown>> {
  const kh = knownHosts();
  const settings: SshSettings = { host: '127.0.0.1', port: 2222, user: 'root', privateKeyPath: KEY, knownHostsPaths: [kh] };
  const report: Record<string, unknown> = {};
  try {
    for (const kind of which) {
      report[kind] = kind === 'exec' ? await execScenario(settings, kh, options.timeMs ?? 3000) : await syncScenario(kind, settings, kh, options.repeats ?? 3);
    }
  } finally {
    rmSync(REMOTE, { recursive: true, force: true }); // the test sshd runs on this machine
  }
  return report;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  console.log(JSON.stringify(await runSshSyncBench(args.length ? args : undefined), null, 2));
}
