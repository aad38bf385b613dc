import * as z from 'zod';

/** How the workspace copy is kept in step with the host (see docs/sandbox.md, "ssh"). */
export const SshSyncSettingsSchema = z.strictObject({
  /**
   * Paths never copied either way. A pattern without `/` matches that name at any depth; one
   * with `/` is anchored at the workspace root; `*` and `?` match within a name, `**` across
   * names; a trailing `/` matches directories only.
   */
  exclude: z.array(z.string().min(1)).default(['node_modules']),
  /** Copy `.git` (commands such as `git status` then work remotely); `false` excludes it. */
  git: z.boolean().default(true),
  /** Also leave out what the workspace's `.gitignore` files ignore (asks the host's `git`). */
  gitignore: z.boolean().default(false),
  /**
   * How long a call waits for a running sync before it answers "still syncing" (the sync goes
   * on in the background). Keep it below the kernel's `timeouts.callMs` (30 s by default).
   */
  waitMs: z.number().int().positive().default(20_000),
  /** A sync is sent in batches of at most this many entries and bytes; a cancel loses at most one. */
  batchEntries: z.number().int().positive().default(20_000),
  batchBytes: z.number().int().positive().default(128 * 1024 * 1024),
});
export type SshSyncSettings = z.output<typeof SshSyncSettingsSchema>;

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
  /**
   * Remote directory (owner-only, created when missing) holding the workspace copies, each
   * under a random name. Default: `.cache/pincer-ssh` in the remote user's home.
   */
  remoteRoot: z.string().startsWith('/').optional(),
  /** Copy a writable workspace's remote changes back to the host: never, or when a session is released and when the kernel stops. */
  syncBack: z.enum(['never', 'on-close']).default('never'),
  sync: SshSyncSettingsSchema.default(SshSyncSettingsSchema.parse({})),
  keepaliveIntervalMs: z.number().int().nonnegative().default(15_000),
  keepaliveCountMax: z.number().int().positive().default(3),
  readyTimeoutMs: z.number().int().positive().default(10_000),
  /** Connection attempts per (re)connect, with doubling backoff; auth and host-key failures never retry. */
  connectAttempts: z.number().int().positive().default(3),
  /**
   * Channels open at once on the shared connection. Unset: learned from the server, which
   * refuses a channel past its limit (OpenSSH's MaxSessions, 10 by default).
   */
  maxChannels: z.number().int().positive().optional(),
});
export type SshSettings = z.input<typeof SshSettingsSchema>;
export type ResolvedSshSettings = z.output<typeof SshSettingsSchema>;
