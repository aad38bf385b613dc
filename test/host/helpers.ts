import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPluginHost, type HostLogRecord, type PluginConfigInput, type PluginHostOptions } from '../../kernel/host/index.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const fixture = (name: string): string => path.join(ROOT, 'dist/test/fixtures/plugins', `${name}.js`);

/** Live processes of a process group, from the process table. */
export function groupMembers(pgid: number): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([, g, stat]) => Number(g) === pgid && !String(stat).startsWith('Z'))
    .map(([pid]) => Number(pid));
}

/** Zombie children of this test process (never reaped). */
export function zombieChildren(): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,stat='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([, ppid, stat]) => Number(ppid) === process.pid && String(stat).startsWith('Z'))
    .map(([pid]) => Number(pid));
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** One private state directory per test file, so plugin data directories never land in $HOME. */
export const TEST_STATE_DIR = mkdtempSync(path.join(os.tmpdir(), 'pincer-host-state-'));

/** A host over fixtures with fast test timings and a log collector. */
export function testHost(plugins: PluginConfigInput[], extra: Partial<PluginHostOptions> = {}) {
  const logs: HostLogRecord[] = [];
  const host = createPluginHost({
    stateDir: TEST_STATE_DIR,
    plugins: plugins.map((p) => ({ ...p, timeouts: { handshakeMs: 5_000, callMs: 5_000, shutdownGraceMs: 500, killGraceMs: 500, ...p.timeouts } })),
    restart: { backoffBaseMs: 50, backoffMaxMs: 200, maxCrashes: 3, windowMs: 60_000 },
    logger: (r) => void logs.push(r),
    ...extra,
  });
  return { host, logs };
}
