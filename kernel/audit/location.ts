/**
 * Where the audit trail lives, shared by the kernel (which writes it) and `pincer audit tail`
 * (which reads it without starting a kernel, so this file imports nothing heavy).
 */
import os from 'node:os';
import path from 'node:path';

/** The journal name: `audit.jsonl`, rotated to `audit.000001.jsonl`, ... (sdk/journal's layout). */
export const AUDIT_JOURNAL_NAME = 'audit';

/** `$PINCER_STATE_DIR`, else `~/.pincer/state`: the host's default, read from a given environment. */
export function stateDirOf(env: NodeJS.ProcessEnv): string {
  return env.PINCER_STATE_DIR ? path.resolve(env.PINCER_STATE_DIR) : path.join(env.HOME || os.homedir(), '.pincer', 'state');
}

/** The trail's directory, or undefined when the config turns it off. */
export function auditDirOf(audit: { enabled?: boolean; dir?: string } | undefined, options: { cwd: string; env?: NodeJS.ProcessEnv }): string | undefined {
  if (audit?.enabled === false) return undefined;
  if (audit?.dir) return path.resolve(options.cwd, audit.dir);
  return path.join(stateDirOf(options.env ?? process.env), 'audit');
}
