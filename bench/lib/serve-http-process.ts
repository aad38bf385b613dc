/**
 * `pincer serve --http 0` as a real child process for the load suite: its URL (from stderr), its
 * bearer token (from --token-file), its memory, and the session lines it logs ("client session
 * … opened" / "… closed (why; n left)"), counted as they come. Its node runs with --trace-gc and
 * --heapsnapshot-signal=SIGUSR2, so the heap after a full collection can be read from outside:
 * a snapshot (written into its cwd) forces one, and the trace prints the size it left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ServeHttpProcess {
  child: ChildProcess;
  url: URL;
  token: string;
  /** Sessions opened, closed by their client (DELETE), expired idle; live per the last line. */
  sessions: { opened: number; closed: number; expired: number; live: number };
  rssMb(): number;
  /** Forces a full GC in the server (a heap snapshot: a pause, so not while measuring latency) and returns the heap it left, in MiB. */
  heapAfterGcMb(): Promise<number>;
  /** The heap the server's own latest full GC left, in MiB (undefined before its first). */
  lastFullGcMb(): number | undefined;
  stderr(): string;
  stop(): Promise<number | null>;
}

export function startServeHttp(cli: string, cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<ServeHttpProcess> {
  const tokenFile = path.join(cwd, 'serve.token');
  const child = spawn(process.execPath, ['--trace-gc', '--heapsnapshot-signal=SIGUSR2', cli, 'serve', '--http', '0', '--token-file', tokenFile, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // --trace-gc writes to stdout (serve over HTTP writes nothing else there): keep each full GC's result.
  const fullGcs: number[] = [];
  let gcPending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (gcPending + chunk.toString()).split('\n');
    gcPending = lines.pop()!;
    for (const line of lines) {
      const m = /Mark-Compact.*? -> ([\d.]+) \(/.exec(line);
      if (m) fullGcs.push(Number(m[1]));
    }
  });
  const heapAfterGcMb = async (): Promise<number> => {
    const seen = fullGcs.length;
    child.kill('SIGUSR2');
    for (const until = Date.now() + 60_000; fullGcs.length === seen; ) {
      if (Date.now() > until) throw new Error('serve did not report a full GC after SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The snapshot's collections come in a burst; the last one is what is left.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return fullGcs.at(-1)!;
  };
  let stderr = '';
  let pending = '';
  const sessions = { opened: 0, closed: 0, expired: 0, live: 0 };
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    return exited;
  };
  let started = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      // Keep the head for diagnosis, not a whole load run's session lines.
      if (stderr.length < 64 * 1024) stderr += text;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const m = / client session \S+ (opened|closed) \((?:(\d+) of at most|(.*?); (\d+) left)/.exec(line);
        if (!m) continue;
        if (m[1] === 'opened') sessions.opened += 1;
        else if (m[3]!.startsWith('idle for')) sessions.expired += 1;
        else sessions.closed += 1;
        sessions.live = Number(m[2] ?? m[4]);
      }
      if (started) return;
      const at = / at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (!at || !/Bearer token: (?:created in|read from)/.test(stderr)) return;
      clearTimeout(timer);
      started = true;
      const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
      resolve({ child, url: new URL(at[1]!), token: readFileSync(tokenFile, 'utf8').trim(), sessions, rssMb, heapAfterGcMb, lastFullGcMb: () => fullGcs.at(-1), stderr: () => stderr, stop });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${stderr}`)));
  });
}
