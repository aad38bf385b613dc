import type { ContainerCreateOptions } from 'dockerode';
import type { ResolvedDockerSettings } from './config.js';
import { SANDBOX_LABELS, SANDBOX_MOUNT_FORMAT_VERSION } from './constants.js';
import { SandboxError } from './errors.js';
import { toDockerBinds, type SandboxMount } from './mounts.js';

export interface DockerCreateInput {
  name: string;
  docker: ResolvedDockerSettings;
  mounts: readonly SandboxMount[];
  user?: string;
  scope: string;
  scopeKey: string;
  agentId: string;
  configHash: string;
  deploymentId: string;
  /** The `seccomp=` value: a profile's JSON (the engine API takes content, not a path) or `unconfined`. */
  seccompOption?: string;
  createdAtMs: number;
  /** Extra labels (tests mark their containers for cleanup). */
  labels?: Record<string, string>;
}

// Docker's API wants bytes; the CLI-style "512m" strings are converted here.
export function parseByteSize(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([bkmgt]?)b?\s*$/i.exec(value);
  if (!m) throw new SandboxError('CONFIG_INVALID', `Invalid byte size "${value}" in sandbox.docker (expected a number of bytes or e.g. 512m, 2g)`);
  const unit = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2].toLowerCase() as 'k'];
  return Math.round(Number(m[1]) * unit);
}

function ulimits(settings: ResolvedDockerSettings['ulimits']) {
  return Object.entries(settings ?? {}).map(([Name, v]) =>
    typeof v === 'number' ? { Name, Soft: v, Hard: v } : { Name, Soft: v.soft, Hard: v.hard });
}

/**
 * dockerode create options with the SPEC §5.4 hardening: read-only root, tmpfs, no network
 * by default, every capability dropped, no-new-privileges, limits, and the labels that
 * list/prune/reuse depend on. The container idles in `sleep infinity`; work arrives via exec.
 * Call validateSandboxSecurity before this; the builder does not re-validate.
 */
export function buildDockerCreateParams(input: DockerCreateInput): ContainerCreateOptions {
  const d = input.docker;
  const securityOpt = ['no-new-privileges'];
  if (input.seccompOption) securityOpt.push(`seccomp=${input.seccompOption}`);
  if (d.apparmorProfile) securityOpt.push(`apparmor=${d.apparmorProfile}`);
  return {
    name: input.name,
    Image: d.image,
    Cmd: ['sleep', 'infinity'],
    WorkingDir: d.workdir,
    User: input.user,
    Env: Object.entries(d.env).map(([k, v]) => `${k}=${v}`),
    Labels: {
      ...input.labels,
      [SANDBOX_LABELS.sandbox]: '1',
      [SANDBOX_LABELS.deployment]: input.deploymentId,
      [SANDBOX_LABELS.scope]: input.scope,
      [SANDBOX_LABELS.scopeKey]: input.scopeKey,
      [SANDBOX_LABELS.agentId]: input.agentId,
      [SANDBOX_LABELS.createdAtMs]: String(input.createdAtMs),
      [SANDBOX_LABELS.mountFormatVersion]: String(SANDBOX_MOUNT_FORMAT_VERSION),
      [SANDBOX_LABELS.configHash]: input.configHash,
    },
    HostConfig: {
      // --init reaps orphans so background children of exec'd commands never linger as zombies.
      Init: true,
      Runtime: d.runtime,
      ReadonlyRootfs: d.readOnlyRoot,
      Tmpfs: Object.fromEntries(d.tmpfs.map((t) => { const i = t.indexOf(':'); return i === -1 ? [t, ''] : [t.slice(0, i), t.slice(i + 1)]; })),
      NetworkMode: d.network,
      CapDrop: d.capDrop,
      SecurityOpt: securityOpt,
      Binds: [...toDockerBinds(input.mounts)],
      // 0 means "no limit" in our settings; the engine reads an absent value the same way.
      PidsLimit: d.pidsLimit > 0 ? d.pidsLimit : undefined,
      Memory: parseByteSize(d.memory) || undefined,
      MemorySwap: parseByteSize(d.memorySwap),
      NanoCpus: d.cpus && d.cpus > 0 ? Math.round(d.cpus * 1e9) : undefined,
      Ulimits: d.ulimits ? ulimits(d.ulimits) : undefined,
      Dns: d.dns,
      ExtraHosts: d.extraHosts,
    },
  };
}
