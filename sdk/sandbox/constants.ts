/** Defaults and fixed names of the sandbox subsystem (SPEC §5.4, §5.7, brand "pincer"). */

export const SANDBOX_WORKSPACE_MOUNT = '/workspace';
export const SANDBOX_AGENT_WORKSPACE_MOUNT = '/agent';

/** Bumped whenever the mount layout changes, so old containers stop matching the config hash. */
export const SANDBOX_MOUNT_FORMAT_VERSION = 3;

export const DEFAULT_SANDBOX_IMAGE = 'pincer-sandbox:bookworm-slim';
export const DEFAULT_CONTAINER_PREFIX = 'pincer-sbx-';
export const DEFAULT_SANDBOX_TMPFS: readonly string[] = ['/tmp', '/var/tmp', '/run'];
export const DEFAULT_SANDBOX_ENV: Readonly<Record<string, string>> = { LANG: 'C.UTF-8' };
export const DEFAULT_PRUNE_IDLE_HOURS = 24;
export const DEFAULT_PRUNE_MAX_AGE_DAYS = 7;

/** A running container used this recently is kept even when its config hash is stale. */
export const HOT_CONTAINER_WINDOW_MS = 5 * 60 * 1000;

/** Docker caps container names at 63 characters for DNS-compatible hostnames. */
export const MAX_CONTAINER_NAME_LENGTH = 63;

/** Label names put on every sandbox container; `list`/`prune` find containers by them. */
export const SANDBOX_LABELS = {
  sandbox: 'pincer.sandbox',
  scopeKey: 'pincer.sessionKey',
  scope: 'pincer.scope',
  agentId: 'pincer.agentId',
  createdAtMs: 'pincer.createdAtMs',
  configHash: 'pincer.configHash',
  mountFormatVersion: 'pincer.mountFormatVersion',
} as const;

/** Per-call defaults of the shell-backed workspace. */
export const DEFAULT_EXEC_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
export const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;
