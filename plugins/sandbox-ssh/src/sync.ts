import { spawn } from 'node:child_process';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import { toShellCommandLine } from '../../../sdk/sandbox/shell/quote.js';
import type { SshConnection } from './connection.js';

/**
 * Workspace copies between this host and the remote, streamed as tar (no temp files, no
 * size limit in memory). Local tar and remote tar are both the system's own.
 */
function finished(what: string, ...waits: Array<Promise<number | null>>): Promise<void> {
  return Promise.all(waits).then((codes) => {
    if (codes.some((c) => c !== 0)) throw new SandboxError('SYNC_FAILED', `Workspace ${what} failed (exit codes ${codes.join(', ')}).`);
  });
}

const UPLOAD = 'set -e; rm -rf -- "$1"; mkdir -p -- "$1"; tar -xf - -C "$1" --no-same-owner';
const DOWNLOAD = 'set -e; cd -- "$1"; shift; tar -cf - "$@" .';

/** Replaces `remoteDir` with a copy of `localDir`. */
export async function uploadDirectory(connection: SshConnection, localDir: string, remoteDir: string): Promise<void> {
  const { channel } = await connection.exec(toShellCommandLine(UPLOAD, [remoteDir]));
  const tar = spawn('tar', ['-cf', '-', '-C', localDir, '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  channel.stderr.on('data', (d: Buffer) => { stderr += d; });
  tar.stdout.pipe(channel);
  await finished(`upload of ${localDir} to ${connection.label}:${remoteDir}${stderr ? `: ${stderr}` : ''}`,
    new Promise((r) => tar.once('close', r)),
    new Promise((r) => channel.once('exit', (c: number | null) => r(c))));
}

/**
 * Copies `remoteDir` back over `localDir`, leaving out `excludes` (paths relative to the
 * directory, such as the read-only skills) so a command cannot rewrite them on the host.
 */
export async function downloadDirectory(connection: SshConnection, remoteDir: string, localDir: string, excludes: readonly string[] = []): Promise<void> {
  const args = [remoteDir, ...excludes.map((e) => `--exclude=./${e.replace(/^\/+/, '')}`)];
  const { channel } = await connection.exec(toShellCommandLine(DOWNLOAD, args));
  channel.end();
  // GNU tar defers absolute and `..` symlinks to placeholders, so an archive cannot write through them.
  const tar = spawn('tar', ['-xf', '-', '-C', localDir, '--no-same-owner'], { stdio: ['pipe', 'ignore', 'pipe'] });
  channel.pipe(tar.stdin);
  await finished(`sync back of ${connection.label}:${remoteDir} to ${localDir}`,
    new Promise((r) => tar.once('close', r)),
    new Promise((r) => channel.once('exit', (c: number | null) => r(c))));
}
