/**
 * Listed containers as rows, each with whether it still runs the current config: the hash the
 * backend would compute now for that scope (agent settings, workspace, user) against the
 * container's `pincer.configHash` label.
 */
import type { SandboxRow } from '../format/sandbox.js';
import type { PincerConfig } from '../kernel.js';
import { expectedConfigHash, type SandboxInfo } from './docker-lifecycle.js';
import { agentWorkspaceDir, defaultAgentId, dockerConfig } from './settings.js';

export function toSandboxRows(config: PincerConfig, infos: SandboxInfo[], cwd: string): SandboxRow[] {
  return infos
    .map((info) => {
      const agentId = info.agentId ?? defaultAgentId(config);
      const expected = info.configHash ? expectedConfigHash(dockerConfig(config, agentId), info, agentWorkspaceDir(config, agentId, cwd)) : undefined;
      return {
        name: info.name,
        backend: info.backendId,
        scope: info.scope,
        scopeKey: info.scopeKey,
        agentId: info.agentId,
        image: info.image,
        state: info.running ? ('running' as const) : ('stopped' as const),
        createdAt: new Date(info.createdAtMs).toISOString(),
        lastUsedAt: info.lastUsedAtMs === undefined ? null : new Date(info.lastUsedAtMs).toISOString(),
        configHash: info.configHash,
        configMatches: expected === undefined ? null : expected === info.configHash,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
