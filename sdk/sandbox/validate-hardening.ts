import type { DangerousDockerFlag } from './config-schema.js';
import type { SandboxError } from './errors.js';
import { loadSeccompProfile } from './seccomp-profile.js';
import { TRUST_FIX, securityViolation } from './security-violation.js';

/**
 * The container's own hardening: seccomp, AppArmor, capabilities, the read-only root and the
 * user. Each default may be weakened only by its named `dangerouslyAllow…` override, so a
 * weakening is always a visible decision (and `pincer config check` lists it).
 */
export interface HardeningConfig extends Partial<Record<DangerousDockerFlag, boolean>> {
  seccompProfile?: string;
  apparmorProfile?: string;
  capDrop?: readonly string[];
  readOnlyRoot?: boolean;
  /** The configured `docker.user` (a user derived from the workspace owner is not judged here). */
  user?: string;
}

function refusal(what: string, flag: DangerousDockerFlag, fix: string, rule: string, value: unknown): SandboxError {
  return securityViolation(what, `${fix}, or set sandbox.docker.${flag}=true. ${TRUST_FIX}`, { rule, value, override: flag });
}

/** True for `0` (`00`…), `root`, `0:…` and `root:…`: the container would run with uid 0. */
export function isRootUser(user: string | undefined): boolean {
  const name = user?.trim().split(':')[0]?.trim().toLowerCase() ?? '';
  return name === 'root' || /^0+$/.test(name);
}

/** Every hardening refusal of this config (empty when it keeps its fences or names their overrides). */
export function hardeningViolations(config: HardeningConfig, readProfile?: (path: string) => string): SandboxError[] {
  const out: SandboxError[] = [];
  if (config.seccompProfile !== undefined && !config.dangerouslyAllowUnconfinedSeccomp) {
    try {
      const profile = loadSeccompProfile(config.seccompProfile, readProfile);
      if (profile.kind === 'unconfined' || profile.allowsEverything) {
        const what = profile.kind === 'unconfined' ? `seccomp profile "${config.seccompProfile}" is blocked: disabling seccomp removes syscall filtering` : `seccomp profile "${profile.path}" allows every system call, which is the same as no seccomp at all`;
        out.push(refusal(what, 'dangerouslyAllowUnconfinedSeccomp', 'Use a profile that denies by default, or remove sandbox.docker.seccompProfile to keep the engine default', 'seccomp-unconfined', config.seccompProfile));
      }
    } catch (error) {
      out.push(error as SandboxError);
    }
  }
  if (config.apparmorProfile?.trim().toLowerCase() === 'unconfined' && !config.dangerouslyAllowUnconfinedAppArmor) {
    out.push(refusal(`apparmor profile "${config.apparmorProfile}" is blocked: disabling AppArmor removes mandatory access control`, 'dangerouslyAllowUnconfinedAppArmor', 'Use a named AppArmor profile or remove sandbox.docker.apparmorProfile', 'apparmor-unconfined', config.apparmorProfile));
  }
  if (config.capDrop && !config.capDrop.some((c) => c.trim().toUpperCase() === 'ALL') && !config.dangerouslyAllowCapabilities) {
    out.push(refusal(`capDrop ${JSON.stringify(config.capDrop)} does not drop "ALL", so the container keeps Linux capabilities`, 'dangerouslyAllowCapabilities', 'Set sandbox.docker.capDrop to ["ALL"] (the default)', 'capabilities', config.capDrop));
  }
  if (config.readOnlyRoot === false && !config.dangerouslyAllowWritableRoot) {
    out.push(refusal('readOnlyRoot: false makes the container root filesystem writable', 'dangerouslyAllowWritableRoot', 'Remove readOnlyRoot (the default is true; tmpfs covers /tmp, /var/tmp and /run)', 'writable-root', false));
  }
  if (isRootUser(config.user) && !config.dangerouslyAllowRootUser) {
    out.push(refusal(`user "${config.user}" runs the sandbox as root`, 'dangerouslyAllowRootUser', 'Remove sandbox.docker.user (the default is the workspace owner) or name an unprivileged uid:gid', 'root-user', config.user));
  }
  return out;
}
