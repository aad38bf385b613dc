import { posix } from 'node:path';
import { splitSandboxBindSpec } from './bind-spec.js';
import { SANDBOX_AGENT_WORKSPACE_MOUNT, SANDBOX_WORKSPACE_MOUNT } from './constants.js';
import type { SandboxError } from './errors.js';
import { TRUST_FIX, securityViolation } from './security-violation.js';
import { isPathInside, normalizeHostPath, resolvePathViaExistingAncestor } from './host-paths.js';
import { hardeningViolations, type HardeningConfig } from './validate-hardening.js';

/**
 * Security validation of a container's creation parameters (SPEC §5.8): binds and network
 * here, the container's own hardening in validate-hardening.ts.
 * Threat model: the config is written by a trusted operator, but may be a foot-gun or
 * carry injected values; nothing here may quietly hand the host to the sandbox.
 */
export const BLOCKED_HOST_PATHS: readonly string[] = [
  '/etc', '/private/etc', '/proc', '/sys', '/dev', '/boot', '/root', '/run', '/var/run', '/private/var/run',
  '/var/run/docker.sock', '/private/var/run/docker.sock', '/run/docker.sock',
];

/** Credential and tool-config directories under each home directory. */
export const BLOCKED_HOME_SUBPATHS: readonly string[] = [
  '.ssh', '.aws', '.gnupg', '.kube', '.docker', '.azure', '.config', '.netrc', '.npm', '.cargo', '.pincer',
];

export const RESERVED_CONTAINER_TARGETS: readonly string[] = [SANDBOX_WORKSPACE_MOUNT, SANDBOX_AGENT_WORKSPACE_MOUNT];

export interface SandboxSecurityConfig extends HardeningConfig {
  binds?: readonly string[];
  network?: string;
  /** Bind sources must live under one of these (typically the workspace and agent workspace). */
  allowedSourceRoots?: readonly string[];
}

export interface SandboxSecurityEnv {
  /** Home directories whose credential sub-directories are blocked. */
  home?: string | readonly string[];
  /** Canonicalizer (symlinks followed, dangling ones too); injectable for tests. */
  resolve?: (path: string) => string;
  /** Reads a seccomp profile file; injectable for tests. */
  readProfile?: (path: string) => string;
}

function blockedPaths(env: Required<Omit<SandboxSecurityEnv, 'readProfile'>>): string[] {
  const homes = typeof env.home === 'string' ? [env.home] : [...env.home];
  const out = new Set(BLOCKED_HOST_PATHS.map(normalizeHostPath));
  for (const home of homes.filter(Boolean)) {
    // Both the home as written and its canonical form, so a symlinked $HOME is covered.
    for (const root of new Set([normalizeHostPath(home), env.resolve(home)])) {
      if (root === '/') continue;
      for (const sub of BLOCKED_HOME_SUBPATHS) out.add(posix.join(root, sub));
    }
  }
  return [...out];
}

function checkSource(bind: string, source: string, blocked: string[], roots: string[] | null): void {
  // A source above a blocked path would expose it too ("covers"); one below it is inside it ("targets").
  const hit =
    source === '/' ? { verb: 'covers', path: '/' }
      : blocked.map((b) => (isPathInside(b, source) ? { verb: 'targets', path: b } : isPathInside(source, b) ? { verb: 'covers', path: b } : null)).find(Boolean);
  if (hit) {
    throw securityViolation(
      `bind mount "${bind}" ${hit.verb} blocked path "${hit.path}" (source resolves to "${source}")`,
      'Mounting system directories, credential directories or the Docker socket into a sandbox is not allowed. Remove the bind from sandbox.docker.binds, or bind a project-specific directory instead (e.g. /home/user/myproject).',
      { bind, source, blockedPath: hit.path, rule: 'blocked-path' },
    );
  }
  if (roots && !roots.some((root) => isPathInside(root, source))) {
    throw securityViolation(
      `bind mount "${bind}" source "${source}" is outside the allowed roots (${roots.join(', ')})`,
      `Move the directory under the workspace, or set sandbox.docker.dangerouslyAllowExternalBindSources=true. ${TRUST_FIX}`,
      { bind, source, allowedRoots: roots, rule: 'allowed-roots' },
    );
  }
}

function validateBind(bind: string, config: SandboxSecurityConfig, blocked: string[], roots: string[] | null, resolve: (p: string) => string): void {
  const parts = splitSandboxBindSpec(bind);
  const source = parts ? parts.host : bind;
  if (!source.startsWith('/')) {
    throw securityViolation(
      `bind mount "${bind}" uses a non-absolute source "${source}"`,
      'Only absolute POSIX host paths can be validated; named volumes and relative paths are refused. Write the bind as /absolute/host/path:/container/path[:ro].',
      { bind, source, rule: 'non-absolute' },
    );
  }
  const target = parts?.container ?? '';
  if (!config.dangerouslyAllowReservedContainerTargets && target.startsWith('/')) {
    const normalizedTarget = normalizeHostPath(target);
    const reserved = RESERVED_CONTAINER_TARGETS.find((r) => isPathInside(r, normalizedTarget));
    if (reserved) {
      throw securityViolation(
        `bind mount "${bind}" targets reserved container path "${reserved}" (resolved target "${normalizedTarget}"), which would shadow the sandbox's own workspace mounts`,
        `Bind to another container path, or set sandbox.docker.dangerouslyAllowReservedContainerTargets=true. ${TRUST_FIX}`,
        { bind, target: normalizedTarget, reservedPath: reserved, rule: 'reserved-target' },
      );
    }
  }
  // Twice: as written, then canonical, so a symlinked parent cannot smuggle in /etc.
  const lexical = normalizeHostPath(source);
  checkSource(bind, lexical, blocked, roots);
  const canonical = resolve(lexical);
  if (canonical !== lexical) checkSource(bind, canonical, blocked, roots);
}

function validateNetwork(network: string | undefined, allowJoin: boolean): void {
  const mode = network?.trim().toLowerCase();
  if (mode === 'host') {
    throw securityViolation(`network mode "${network}" is blocked: "host" networking bypasses container network isolation`, 'Set sandbox.docker.network to "none" (default) or a bridge network.', { network, rule: 'network-host' });
  }
  if (mode?.startsWith('container:') && !allowJoin) {
    throw securityViolation(`network mode "${network}" is blocked: "container:*" joins another container's network namespace and bypasses sandbox isolation`, `Use "none" or a bridge network, or set sandbox.docker.dangerouslyAllowContainerNamespaceJoin=true. ${TRUST_FIX}`, { network, rule: 'network-container' });
  }
}

/**
 * Every refusal of this config, each a SandboxError (`SECURITY_VIOLATION`, or `CONFIG_INVALID`
 * for an unreadable seccomp profile) naming the bind or setting and the fix. `pincer config
 * check` reports them all; a backend refuses on the first.
 */
export function sandboxSecurityViolations(config: SandboxSecurityConfig, env: SandboxSecurityEnv = {}): SandboxError[] {
  const resolved: Required<Omit<SandboxSecurityEnv, 'readProfile'>> = {
    home: env.home ?? (process.env.HOME ? [process.env.HOME] : []),
    resolve: env.resolve ?? resolvePathViaExistingAncestor,
  };
  const blocked = blockedPaths(resolved);
  const roots =
    config.dangerouslyAllowExternalBindSources || !config.allowedSourceRoots?.length
      ? null
      : [...new Set(config.allowedSourceRoots.filter((r) => r.startsWith('/')).flatMap((r) => [normalizeHostPath(r), resolved.resolve(r)]))];
  const out: SandboxError[] = [];
  const collect = (check: () => void) => {
    try {
      check();
    } catch (error) {
      out.push(error as SandboxError);
    }
  };
  for (const bind of config.binds ?? []) {
    if (bind.trim()) collect(() => validateBind(bind, config, blocked, roots, resolved.resolve));
  }
  collect(() => validateNetwork(config.network, config.dangerouslyAllowContainerNamespaceJoin === true));
  return [...out, ...hardeningViolations(config, env.readProfile)];
}

/** Throws the first refusal of this config; returns when it is safe. */
export function validateSandboxSecurity(config: SandboxSecurityConfig, env: SandboxSecurityEnv = {}): void {
  const [first] = sandboxSecurityViolations(config, env);
  if (first) throw first;
}
