import { z } from 'zod';

/** `sandbox.ssh` settings. One remote host holds a copy of each sandboxed workspace. */
export const SshSettingsSchema = z.object({
  host: z.string().min(1),
  port: z.number().int().positive().default(22),
  user: z.string().min(1),
  /** Private key file; or set `agent` to use an ssh-agent socket. */
  privateKeyPath: z.string().optional(),
  passphrase: z.string().optional(),
  /** ssh-agent socket path (e.g. $SSH_AUTH_SOCK). */
  agent: z.string().optional(),
  /** known_hosts file(s) to verify the host key against (default ~/.ssh/known_hosts). */
  knownHostsPaths: z.array(z.string()).optional(),
  /** A pinned host key: `ssh-ed25519 AAAA…` or a `SHA256:…` fingerprint. Wins over known_hosts. */
  hostKey: z.string().optional(),
  /** Remote directory under which each scope's workspace copy lives. */
  remoteRoot: z.string().startsWith('/').default('/tmp/pincer-ssh'),
  /** Copy the writable workspace back to the host: never, or when the workspace is closed. */
  syncBack: z.enum(['never', 'on-close']).default('never'),
  keepaliveIntervalMs: z.number().int().nonnegative().default(15_000),
  keepaliveCountMax: z.number().int().positive().default(3),
  readyTimeoutMs: z.number().int().positive().default(10_000),
  /** Connection attempts per (re)connect, with doubling backoff; auth and host-key failures never retry. */
  connectAttempts: z.number().int().positive().default(3),
  /** OpenSSH allows 10 sessions per connection by default; stay under it. */
  maxChannels: z.number().int().positive().default(8),
});
export type SshSettings = z.input<typeof SshSettingsSchema>;
export type ResolvedSshSettings = z.output<typeof SshSettingsSchema>;
