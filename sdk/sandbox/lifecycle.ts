/**
 * Backend-neutral selection rules for the operator commands
 * `pincer sandbox list | recreate | prune`. Backends list their sandboxes as
 * SandboxInfo and remove what these functions select.
 */
export interface SandboxInfo {
  name: string;
  backendId: string;
  /** The `pincer.deployment` label: which deployment created it. */
  deploymentId?: string;
  scope?: string;
  scopeKey: string;
  agentId?: string;
  running: boolean;
  createdAtMs: number;
  lastUsedAtMs?: number;
  image?: string;
  configHash?: string;
  /** Commands running in it right now (docker exec sessions); prune never removes a busy sandbox. */
  activeExecs?: number;
}

export type RecreateTarget = { session: string } | { agent: string } | { all: true };

export function selectForRecreate(infos: readonly SandboxInfo[], target: RecreateTarget): SandboxInfo[] {
  if ('all' in target) return [...infos];
  if ('session' in target) return infos.filter((i) => i.scopeKey === target.session.trim());
  const agent = target.agent.trim() || 'main';
  return infos.filter((i) => i.agentId === agent || i.scopeKey === `agent:${agent}`);
}

export interface PruneRule {
  /** Remove sandboxes unused this long; 0 disables. */
  idleHours: number;
  /** Remove sandboxes older than this; 0 disables. */
  maxAgeDays: number;
  now: number;
}

/**
 * Idle is measured from last use, or from creation when no registry recorded a use. A sandbox
 * with a command running is in use whatever the registry says, and is never pruned.
 */
export function selectPrunable(infos: readonly SandboxInfo[], rule: PruneRule): SandboxInfo[] {
  const idleMs = rule.idleHours * 3_600_000;
  const ageMs = rule.maxAgeDays * 86_400_000;
  return infos.filter((i) => {
    if ((i.activeExecs ?? 0) > 0) return false;
    const lastUsed = i.lastUsedAtMs ?? i.createdAtMs;
    return (idleMs > 0 && rule.now - lastUsed > idleMs) || (ageMs > 0 && rule.now - i.createdAtMs > ageMs);
  });
}
