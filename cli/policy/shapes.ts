/**
 * The run shapes a config names: per agent its main session, a sandboxed session when its
 * sandbox mode sandboxes one, each group (and `*`), each sender key and each provider key the
 * config has rules for. `policy diff` compares both configs over the union of their shapes.
 */
import type { PincerConfig as KernelConfig } from '../../kernel/config/schema.js';
import type { PincerConfig, RunContext } from '../kernel.js';
import { senderForKey } from './sender-key.js';

export interface RunShape {
  /** A stable, readable key: `agent main · group team`. */
  label: string;
  run: RunContext;
}

function agentsOf(config: KernelConfig): { id: string; mode: string; tools?: { byProvider?: Record<string, unknown> } }[] {
  const defaults = config.agents?.defaults?.sandbox?.mode ?? 'off';
  const list = config.agents?.list ?? [];
  if (list.length === 0) return [{ id: 'main', mode: defaults }];
  return list.map((agent) => ({ id: agent.id, mode: agent.sandbox?.mode ?? defaults, tools: agent.tools }));
}

/** `openai` is a provider; `openai/gpt-4o` a qualified model (the run takes its provider from it). */
function providerRun(key: string): Pick<RunContext, 'provider' | 'model'> {
  return key.includes('/') ? { model: key } : { provider: key };
}

export function runShapes(raw: PincerConfig): RunShape[] {
  const config = raw as KernelConfig;
  const shapes: RunShape[] = [];
  const add = (label: string, run: RunContext) => shapes.push({ label, run: { trigger: 'user', ...run } });
  for (const agent of agentsOf(config)) {
    const base = `agent ${agent.id}`;
    add(base, { agentId: agent.id });
    // Under non-main only other sessions are sandboxed (under all, the main one already is).
    if (agent.mode === 'non-main') add(`${base} · sandboxed session`, { agentId: agent.id, sessionKey: `agent:${agent.id}:policy-review` });
    for (const [group, rules] of Object.entries(config.groups ?? {})) {
      add(`${base} · group ${group}`, { agentId: agent.id, groupId: group });
      for (const key of Object.keys(rules.toolsBySender ?? {})) add(`${base} · group ${group} · sender ${key}`, { agentId: agent.id, groupId: group, sender: senderForKey(key) });
    }
    for (const key of Object.keys(config.tools?.toolsBySender ?? {})) add(`${base} · sender ${key}`, { agentId: agent.id, sender: senderForKey(key) });
    const providers = new Set([...Object.keys(config.tools?.byProvider ?? {}), ...Object.keys(agent.tools?.byProvider ?? {})]);
    for (const key of providers) add(`${base} · provider ${key}`, { agentId: agent.id, ...providerRun(key) });
  }
  return shapes;
}

/** Both configs' shapes, each label once, agent by agent in first-seen order. */
export function unionShapes(...lists: RunShape[][]): RunShape[] {
  const byLabel = new Map<string, RunShape>();
  for (const shape of lists.flat()) if (!byLabel.has(shape.label)) byLabel.set(shape.label, shape);
  const agents = [...new Set([...byLabel.values()].map((s) => s.run.agentId))];
  return [...byLabel.values()].sort((a, b) => agents.indexOf(a.run.agentId) - agents.indexOf(b.run.agentId));
}
