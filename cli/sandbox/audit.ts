/**
 * The docker sandbox settings of every agent, judged before any container exists: the same
 * schema and security validation the backend runs at `sandbox/prepare` (binds, network,
 * profiles, capabilities, root), each problem with the config path that causes it, plus the
 * `dangerouslyAllow…` overrides in effect. `pincer config check` and `pincer sandbox check`
 * both report it, so a config they pass is not refused by the first call.
 */
import type { z } from 'zod';
import type { PincerConfig as KernelConfig } from '../../kernel/config/schema.js';
import { DANGEROUS_DOCKER_FLAGS, DockerBackendSettingsSchema, DockerSettingsSchema, type DangerousDockerFlag } from '../../sdk/sandbox/config.js';
import type { SandboxError } from '../../sdk/sandbox/errors.js';
import { sandboxSecurityViolations } from '../../sdk/sandbox/validate-security.js';
import type { PincerConfig } from '../kernel.js';
import { agentIds, agentSandbox, agentWorkspaceDir, dockerConfig, pluginEntry } from './settings.js';

export interface AuditFinding {
  /** Config path of the key to change, e.g. `agents.list[1].sandbox.docker.binds[0]`. */
  path: string;
  message: string;
  agent?: string;
  code?: string;
}

export interface SandboxAudit {
  issues: AuditFinding[];
  /** Dangerous overrides in effect: valid, but each lifts a fence. */
  warnings: AuditFinding[];
}

interface Layer { path: string; docker: Record<string, unknown> }

/** The layers an agent's docker settings come from, earliest first, each with its config path. */
function dockerLayers(config: PincerConfig, agentId: string): Layer[] {
  const kernel = config as KernelConfig;
  const layers: Layer[] = [];
  const plugin = pluginEntry(config, 'sandbox-docker');
  if (plugin?.settings.docker) layers.push({ path: `plugins[${plugin.index}].settings.docker`, docker: plugin.settings.docker as Record<string, unknown> });
  const defaults = kernel.agents?.defaults?.sandbox;
  if (defaults?.docker) layers.push({ path: 'agents.defaults.sandbox.docker', docker: defaults.docker });
  const index = kernel.agents?.list?.findIndex((a) => a.id === agentId) ?? -1;
  const own = index >= 0 ? kernel.agents!.list![index]!.sandbox : undefined;
  // With scope shared the agent's own docker block is ignored (kernel/config/sandbox-merge.ts).
  if (own?.docker && agentSandbox(config, agentId).scope !== 'shared') layers.push({ path: `agents.list[${index}].sandbox.docker`, docker: own.docker });
  return layers;
}

/** Where a refused setting was written: the bind's own entry, else the last layer that sets the key. */
function blame(layers: Layer[], error: SandboxError): string {
  const data = error.data ?? {};
  if (typeof data.bind === 'string') {
    for (const layer of [...layers].reverse()) {
      const i = (layer.docker.binds as unknown[] | undefined)?.indexOf(data.bind) ?? -1;
      if (i >= 0) return `${layer.path}.binds[${i}]`;
    }
  }
  const key = typeof data.key === 'string' ? data.key : RULE_KEYS[String(data.rule)];
  const layer = key ? [...layers].reverse().find((l) => l.docker[key] !== undefined) : undefined;
  return layer && key ? `${layer.path}.${key}` : (layers.at(-1)?.path ?? 'agents.defaults.sandbox.docker');
}

const RULE_KEYS: Record<string, string> = {
  'network-host': 'network', 'network-container': 'network', 'seccomp-unconfined': 'seccompProfile', 'apparmor-unconfined': 'apparmorProfile',
  capabilities: 'capDrop', 'writable-root': 'readOnlyRoot', 'root-user': 'user',
};

function schemaIssues(schema: z.ZodType, value: unknown, path: string): AuditFinding[] {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => {
    const keys = 'keys' in i && Array.isArray(i.keys) ? i.keys : [undefined];
    return keys.map((k) => ({ path: [path, ...i.path, ...(k ? [k] : [])].join('.'), message: i.message }));
  }).flat();
}

function auditAgent(config: PincerConfig, agentId: string, cwd: string, out: SandboxAudit): void {
  const layers = dockerLayers(config, agentId);
  const invalid = layers.flatMap((l) => schemaIssues(DockerSettingsSchema, l.docker, l.path));
  if (invalid.length) {
    out.issues.push(...invalid);
    return;
  }
  const resolved = dockerConfig(config, agentId);
  const workspace = agentWorkspaceDir(config, agentId, cwd);
  const d = resolved.docker;
  const violations = sandboxSecurityViolations({ ...d, allowedSourceRoots: d.dangerouslyAllowExternalBindSources ? undefined : [workspace] });
  for (const v of violations) out.issues.push({ path: blame(layers, v), message: v.message, agent: agentId, code: v.code });
  for (const flag of Object.keys(DANGEROUS_DOCKER_FLAGS) as DangerousDockerFlag[]) {
    if (d[flag] !== true) continue;
    const layer = [...layers].reverse().find((l) => l.docker[flag] === true);
    out.warnings.push({ path: `${layer?.path ?? 'sandbox.docker'}.${flag}`, message: DANGEROUS_DOCKER_FLAGS[flag], agent: agentId });
  }
}

const unique = (findings: AuditFinding[]) => [...new Map(findings.map((f) => [`${f.path}\n${f.message}`, f])).values()];

/** Every agent whose sandbox uses docker (or only `agentId`), judged as the backend would judge it. */
export function auditDockerSandboxes(config: PincerConfig, cwd: string, agentId?: string): SandboxAudit {
  const out: SandboxAudit = { issues: [], warnings: [] };
  const plugin = pluginEntry(config, 'sandbox-docker');
  if (plugin) out.issues.push(...schemaIssues(DockerBackendSettingsSchema, plugin.settings, `plugins[${plugin.index}].settings`));
  if (out.issues.length) return out;
  for (const id of agentId === undefined ? agentIds(config) : [agentId]) {
    const sandbox = agentSandbox(config, id);
    if ((sandbox.mode ?? 'off') === 'off' || (sandbox.backend ?? 'docker').trim().toLowerCase() !== 'docker') continue;
    auditAgent(config, id, cwd, out);
  }
  return { issues: unique(out.issues), warnings: unique(out.warnings) };
}
