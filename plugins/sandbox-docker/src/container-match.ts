import type { ContainerCreateOptions, ContainerInspectInfo } from 'dockerode';
import { SANDBOX_LABELS } from '../../../sdk/sandbox/constants.js';

/**
 * What differs between the container the engine actually runs (its own `inspect` view) and
 * the plan. A container is handed out only when this is empty: a label or a registry entry
 * can say anything, the engine's view is what commands will run in.
 */
export function containerDrift(plan: ContainerCreateOptions, info: ContainerInspectInfo, imageId?: string): string[] {
  const want = plan.HostConfig ?? {};
  const have = info.HostConfig ?? {};
  const drift: string[] = [];
  const check = (field: string, same: boolean) => { if (!same) drift.push(field); };

  // The image the name means now: a rebuilt or re-pulled image is a changed plan too.
  check('image', info.Config.Image === plan.Image && (imageId === undefined || info.Image === imageId));
  check('user', (info.Config.User ?? '') === (plan.User ?? ''));
  check('network', have.NetworkMode === want.NetworkMode);
  check('read-only root', Boolean(have.ReadonlyRootfs) === Boolean(want.ReadonlyRootfs));
  check('privileged', !have.Privileged);
  check('namespaces and devices', !hostNamespace(have.PidMode) && !hostNamespace(have.IpcMode) && !hostNamespace(have.UTSMode) && !hostNamespace(have.UsernsMode) && !have.Devices?.length && !have.VolumesFrom?.length && !have.Mounts?.length);
  check('capabilities', sameSet(have.CapDrop, want.CapDrop) && sameSet(have.CapAdd, []));
  check('security options (seccomp, apparmor, no-new-privileges)', sameSet(have.SecurityOpt, want.SecurityOpt));
  check('mounts', sameSet(have.Binds, want.Binds) && actualBindsMatch(info, want.Binds ?? []));
  check('tmpfs', sameSet(Object.keys(have.Tmpfs ?? {}), Object.keys(want.Tmpfs ?? {})));
  check('deployment', info.Config.Labels?.[SANDBOX_LABELS.deployment] === plan.Labels?.[SANDBOX_LABELS.deployment]);
  // The rest of the settings (env, limits, setup command...) is covered by the config hash.
  check('config hash', info.Config.Labels?.[SANDBOX_LABELS.configHash] === plan.Labels?.[SANDBOX_LABELS.configHash]);
  return drift;
}

// `host` or another container's namespace; the engine reports private ones as '' or 'private'.
const hostNamespace = (mode: string | undefined) => mode !== undefined && mode !== '' && mode !== 'private';

function sameSet(a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean {
  const x = [...new Set(a ?? [])].sort();
  const y = [...new Set(b ?? [])].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * The mounts the engine reports (not only the binds it was asked for): every planned bind is
 * there with the same source and writability, and no other host directory is mounted.
 */
function actualBindsMatch(info: ContainerInspectInfo, binds: readonly string[]): boolean {
  const planned = new Map(binds.map((b) => {
    const [source, target, mode] = b.split(':');
    return [target, { source, rw: mode !== 'ro' }] as const;
  }));
  const mounts = (info.Mounts ?? []).filter((m) => m.Type === 'bind');
  if (mounts.length !== planned.size) return false;
  return mounts.every((m) => {
    const p = planned.get(m.Destination);
    return p !== undefined && p.source === m.Source && p.rw === m.RW;
  });
}
