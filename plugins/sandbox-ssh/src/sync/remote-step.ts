import type { Readable } from 'node:stream';
import { SandboxError, throwIfCancelled } from '../../../../sdk/sandbox/errors.js';
import { toShellCommandLine } from '../../../../sdk/sandbox/shell/quote.js';
import type { SshConnection } from '../connection.js';

export interface StepOptions {
  /** Sent as the script's stdin, then closed. */
  stdin?: Buffer | Readable;
  signal?: AbortSignal;
  /** Streams stdout to the caller instead of collecting it. */
  onStdout?: (chunk: Buffer) => void;
  /** Cap on collected stdout and stderr; past it the step fails (a remote that floods us). */
  maxCollectBytes?: number;
}

export interface StepResult {
  code: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

const DEFAULT_COLLECT_CAP = 512 * 1024 * 1024;

/**
 * Runs one sync script on the remote over its own channel. Cancelling closes the channel:
 * the remote script then reads end-of-file (an upload stops) or is killed by SIGPIPE (a
 * download stops), so nothing keeps running for a caller that gave up.
 */
export async function runStep(connection: SshConnection, what: string, script: string, args: readonly string[], options: StepOptions = {}): Promise<StepResult> {
  throwIfCancelled(options.signal, what);
  const { channel } = await connection.exec(toShellCommandLine(script, args));
  const cap = options.maxCollectBytes ?? DEFAULT_COLLECT_CAP;
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let collected = 0;
  let overflow = false;
  const collect = (into: Buffer[]) => (chunk: Buffer) => {
    collected += chunk.length;
    if (collected > cap) { overflow = true; channel.destroy(); return; }
    into.push(chunk);
  };
  channel.on('data', options.onStdout ?? collect(out));
  channel.stderr.on('data', collect(err));
  let cancelled = false;
  const onAbort = () => { cancelled = true; channel.destroy(); };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const done = new Promise<number | null>((resolve) => {
    let code: number | null = null;
    channel.once('exit', (c: number | null) => { code = c; });
    channel.once('close', () => resolve(code));
  });
  const stdin = options.stdin;
  if (stdin === undefined) channel.end();
  else if (Buffer.isBuffer(stdin)) channel.end(stdin);
  else {
    stdin.once('error', () => channel.destroy());
    stdin.pipe(channel);
  }
  try {
    const code = await done;
    if (cancelled) throw new SandboxError('CANCELLED', `Sync step cancelled: ${what}`, { cause: options.signal?.reason });
    if (overflow) throw new SandboxError('SYNC_FAILED', `${what}: the remote sent more than ${cap} bytes`);
    return { code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    if (stdin !== undefined && !Buffer.isBuffer(stdin)) stdin.unpipe(channel);
  }
}

/** The step's error when it did not exit 0, with the remote's own words. */
export function stepFailure(what: string, result: StepResult): SandboxError | undefined {
  if (result.code === 0) return undefined;
  const said = result.stderr.toString('utf8').trim().slice(0, 600);
  return new SandboxError('SYNC_FAILED', `${what} failed on the remote (exit ${result.code ?? 'none: the connection closed'})${said ? `: ${said}` : ''}`);
}
