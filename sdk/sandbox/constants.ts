/** Defaults and fixed names of the sandbox subsystem (SPEC §5.4, §5.7, brand "pincer"). */

export const SANDBOX_WORKSPACE_MOUNT = '/workspace';
export const SANDBOX_AGENT_WORKSPACE_MOUNT = '/agent';

/** Bumped whenever the mount layout changes, so old containers stop matching the config hash. */
export const SANDBOX_MOUNT_FORMAT_VERSION = 3;

export const DEFAULT_SANDBOX_IMAGE = 'pincer-sandbox:bookworm-slim';
export const DEFAULT_CONTAINER_PREFIX = 'pincer-sbx-';
export const DEFAULT_SANDBOX_TMPFS: readonly string[] = ['/tmp', '/var/tmp', '/run'];
export const DEFAULT_SANDBOX_ENV: Readonly<Record<string, string>> = { LANG: 'C.UTF-8' };
export const DEFAULT_DEPLOYMENT_ID = 'default';
/** Resource limits the reference lacks: a fork bomb or a runaway build cannot take the host down. */
export const DEFAULT_SANDBOX_PIDS_LIMIT = 512;
export const DEFAULT_SANDBOX_MEMORY = '2g';
export const DEFAULT_PRUNE_IDLE_HOURS = 24;
export const DEFAULT_PRUNE_MAX_AGE_DAYS = 7;

/**
 * A container that no longer matches its plan is never handed out; if a registry saw it used
 * this recently (by another process of the deployment), it is not removed either.
 */
export const HOT_CONTAINER_WINDOW_MS = 5 * 60 * 1000;

/** Docker caps container names at 63 characters for DNS-compatible hostnames. */
export const MAX_CONTAINER_NAME_LENGTH = 63;

/** Label names put on every sandbox container; `list`/`prune` find containers by them. */
export const SANDBOX_LABELS = {
  sandbox: 'pincer.sandbox',
  /** The owning deployment; `pincer sandbox list|recreate|prune` act only on their own. */
  deployment: 'pincer.deployment',
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
