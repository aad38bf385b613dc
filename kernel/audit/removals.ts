/**
 * Policy removals for the trail, recorded once per agent and distinct removal rather than per
 * assembly. Assembly is the kernel's hot path, so `note` only remembers the run's removal list:
 * a run shape already seen hands back the same frozen list (the policy engine's cache), which
 * costs one WeakMap look-up and queues nothing. Grouping and de-duplication run later, off it.
 */
import { createHash } from 'node:crypto';
import type { PolicyRemoval } from '../policy/index.js';
import type { AuditRecord } from './record.js';

interface Queued {
  at: string;
  agent: string;
  session?: string;
  run?: string;
  removals: readonly PolicyRemoval[];
}

/** Distinct removals remembered, so a list that differs only elsewhere does not repeat them. */
const MAX_RECORDED = 4096;

export class RemovalLedger {
  readonly #seen = new WeakMap<readonly PolicyRemoval[], Set<string>>();
  readonly #recorded = new Set<string>();
  #queued: Queued[] = [];

  get pending(): number {
    return this.#queued.length;
  }

  /** True when the list was queued (first time for this agent); false for a seen run shape. */
  note(removals: readonly PolicyRemoval[], run: { agentId: string; sessionKey?: string; runId?: string }): boolean {
    if (removals.length === 0) return false;
    let agents = this.#seen.get(removals);
    if (agents?.has(run.agentId)) return false;
    if (!agents) this.#seen.set(removals, (agents = new Set()));
    agents.add(run.agentId);
    this.#queued.push({ at: new Date().toISOString(), agent: run.agentId, session: run.sessionKey, run: run.runId, removals });
    return true;
  }

  /** The queued lists as records: one per agent and rule (layer and label) with its tools and matched entries, each once. */
  drain(): AuditRecord[] {
    const queued = this.#queued;
    this.#queued = [];
    const records: AuditRecord[] = [];
    for (const entry of queued) {
      const byRule = new Map<string, PolicyRemoval[]>();
      for (const removal of entry.removals) {
        // One record per rule, as the policy's own audit lines are: a plugin-id deny matches each tool by its own expanded entry.
        const key = `${removal.layer}\0${removal.label}\0${removal.ruleKind}`;
        const group = byRule.get(key);
        if (group) group.push(removal);
        else byRule.set(key, [removal]);
      }
      for (const [key, group] of byRule) {
        const tools = group.map((removal) => removal.tool).sort();
        // Hashed: a deny that removes thousands of tools would otherwise keep their names in memory.
        const identity = createHash('sha256').update(`${entry.agent}\0${key}\0${tools.join('\0')}`).digest('base64');
        if (this.#recorded.has(identity)) continue;
        this.#remember(identity);
        const { layer, label, ruleKind, configKey } = group[0];
        const matched = [...new Set(group.flatMap((removal) => removal.matchedRules))].sort();
        records.push({
          at: entry.at, kind: 'policy.removed', agent: entry.agent, session: entry.session, run: entry.run,
          code: 'TOOL_REMOVED', layer, rule: label, reason: ruleKind === 'deny' ? 'denied' : 'not allowed',
          matched, configKey, tools, count: tools.length,
        });
      }
    }
    return records;
  }

  #remember(identity: string): void {
    if (this.#recorded.size >= MAX_RECORDED) this.#recorded.delete(this.#recorded.values().next().value as string);
    this.#recorded.add(identity);
  }
}
