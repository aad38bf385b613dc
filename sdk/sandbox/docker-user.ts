import { statSync } from 'node:fs';

export interface ResolveDockerUserInput {
  /** `sandbox.docker.user`; a non-empty value always wins. */
  configuredUser?: string;
  workspaceDir: string;
  backend?: string;
  /** Podman rootless maps ids itself; only rootful podman needs the explicit user. */
  podmanRootless?: boolean;
  stat?: (path: string) => { uid: number; gid: number };
}

/**
 * SPEC §5.10: the container user defaults to the owner of the workspace directory
 * (`uid:gid`), so files the sandbox writes are owned normally on the host. Any stat error
 * or odd id leaves the user unset (the image default).
 */
export function resolveSandboxDockerUser(input: ResolveDockerUserInput): string | undefined {
  const configured = input.configuredUser?.trim();
  if (configured) return configured;
  const backend = (input.backend ?? 'docker').trim().toLowerCase();
  if (backend !== 'docker' && !(backend === 'podman' && input.podmanRootless === false)) return undefined;
  try {
    const { uid, gid } = (input.stat ?? statSync)(input.workspaceDir);
    if (Number.isInteger(uid) && Number.isInteger(gid) && uid >= 0 && gid >= 0) return `${uid}:${gid}`;
  } catch {
    // unreadable workspace: fall back to the image's user
  }
  return undefined;
}
