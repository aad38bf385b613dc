/**
 * Which config entries a run selects for its provider, group and sender layers, each with
 * the config key it was found under. Ids compare by the one rule of `id-match.ts`.
 */
import type { GroupConfig, ProviderToolPolicyConfig } from '../config/tools-schema.js';
import { findById, foldId } from './id-match.js';
import type { ToolPolicyConfig } from './policy-forms.js';
import type { RunSender } from './run-context.js';

/** A selected config entry and the config key (path) it lives at. */
export interface Selected<V> {
  key: string;
  value: V;
}

/** The groups key that applies to every group the config does not list. */
export const WILDCARD_GROUP = '*';

/**
 * The run's provider and model, with the provider taken from a qualified model id
 * (`openai/gpt-4o`) when none is given, and a model id that repeats its provider
 * (`--provider openai --model openai/gpt-4o`) stripped of it.
 */
export function resolveModelRef(provider: string | undefined, model: string | undefined): { provider?: string; model?: string } {
  let p = provider?.trim() || undefined;
  let m = model?.trim() || undefined;
  const slash = m?.indexOf('/') ?? -1;
  if (!p && m && slash > 0) [p, m] = [m.slice(0, slash), m.slice(slash + 1) || undefined];
  else if (p && m && foldId(m).startsWith(`${foldId(p)}/`)) m = m.slice(p.length + 1) || undefined;
  return { ...(p ? { provider: p } : {}), ...(m ? { model: m } : {}) };
}

/** A `byProvider` entry: `provider/model` wins over `provider`. */
export function selectProvider(
  map: Record<string, ProviderToolPolicyConfig> | undefined,
  prefix: string,
  run: { provider?: string; model?: string },
): Selected<ProviderToolPolicyConfig> | undefined {
  const { provider, model } = resolveModelRef(run.provider, run.model);
  if (!provider) return undefined;
  const hit = (model && findById(map, `${provider}/${model}`)) || findById(map, provider);
  return hit ? { key: `${prefix}.byProvider.${hit.key}`, value: hit.value } : undefined;
}

/** The group's own entry and the wildcard, when a group is named. */
export function selectGroups(groups: Record<string, GroupConfig> | undefined, groupId: string | undefined) {
  if (!groups || !foldId(groupId)) return { specific: undefined, wildcard: undefined };
  const own = foldId(groupId) === WILDCARD_GROUP ? undefined : findById(groups, groupId);
  const wildcard = groups[WILDCARD_GROUP];
  return {
    specific: own && ({ key: `groups.${own.key}`, value: own.value } as Selected<GroupConfig>),
    wildcard: wildcard && ({ key: `groups.${WILDCARD_GROUP}`, value: wildcard } as Selected<GroupConfig>),
  };
}

/** The group layer: the group's own `tools`, else the wildcard's. A specific `tools: {}` lifts the wildcard. */
export function groupToolPolicy(groups: ReturnType<typeof selectGroups>): Selected<ToolPolicyConfig> | undefined {
  for (const group of [groups.specific, groups.wildcard]) {
    if (group?.value.tools) return { key: `${group.key}.tools`, value: group.value.tools };
  }
  return undefined;
}

/** First matching key of one `toolsBySender` map: `id:`, a bare id, `e164:`, `username:`, `name:`, then `*`. */
function matchSender(map: Record<string, ToolPolicyConfig> | undefined, sender: RunSender | undefined): { key: string; value: ToolPolicyConfig } | undefined {
  if (!map) return undefined;
  const candidates: string[] = [];
  if (sender?.id) candidates.push(`id:${sender.id}`, sender.id);
  if (sender?.e164) candidates.push(`e164:${sender.e164}`);
  if (sender?.username) candidates.push(`username:${sender.username.trim().replace(/^@/, '')}`);
  if (sender?.name) candidates.push(`name:${sender.name}`);
  candidates.push('*');
  for (const candidate of candidates) {
    const hit = findById(map, candidate);
    if (hit) return hit;
  }
  return undefined;
}

/** The sender layer: the group's own rules, then the wildcard group's, then `tools.toolsBySender`. */
export function senderToolPolicy(
  groups: ReturnType<typeof selectGroups>,
  global: Record<string, ToolPolicyConfig> | undefined,
  sender: RunSender | undefined,
): Selected<ToolPolicyConfig> | undefined {
  const sources: [string, Record<string, ToolPolicyConfig> | undefined][] = [
    [`${groups.specific?.key}.toolsBySender`, groups.specific?.value.toolsBySender],
    [`${groups.wildcard?.key}.toolsBySender`, groups.wildcard?.value.toolsBySender],
    ['tools.toolsBySender', global],
  ];
  for (const [prefix, map] of sources) {
    const hit = matchSender(map, sender);
    if (hit) return { key: `${prefix}.${hit.key}`, value: hit.value };
  }
  return undefined;
}
