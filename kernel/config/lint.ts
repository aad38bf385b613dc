/**
 * Policy entries that can do nothing, found in the config alone (for `pincer config check`):
 * an entry that names no core tool, legacy name, channel, group, configured plugin or known
 * plugin tool. A deny typo is the worse kind: the operator believes something is fenced.
 *
 * Without the tool lists of every configured plugin (from their manifests, say) a name may
 * be a tool of a plugin we cannot see, so then only `group:` entries (a closed vocabulary)
 * and near misses of known names are reported.
 */
import { foldToolName, normalizeToolPolicyName } from '../../sdk/policy/index.js';
import { loadManifest, manifestPath } from '../host/manifest.js';
import { PluginConfigSchema } from '../host/config.js';
import { isKnownEntry, sanitizeAuditField, suggestEntry, type PolicyVocabulary } from '../policy/index.js';
import type { ConfigIssue } from './errors.js';
import type { PincerConfig } from './schema.js';

type PolicyObject = { allow?: string[]; alsoAllow?: string[]; deny?: string[] } | undefined;

/** Every policy object of the config, with its config path. */
function policyObjects(config: PincerConfig): [string, PolicyObject][] {
  const out: [string, PolicyObject][] = [];
  const byKey = (prefix: string, map: Record<string, PolicyObject> | undefined) => Object.entries(map ?? {}).forEach(([key, value]) => out.push([`${prefix}.${key}`, value]));
  const tools = config.tools;
  out.push(['tools', tools], ['tools.sandbox.tools', tools?.sandbox?.tools], ['tools.subagents.tools', tools?.subagents?.tools]);
  byKey('tools.byProvider', tools?.byProvider);
  byKey('tools.toolsBySender', tools?.toolsBySender);
  for (const [id, group] of Object.entries(config.groups ?? {})) {
    out.push([`groups.${id}.tools`, group.tools]);
    byKey(`groups.${id}.toolsBySender`, group.toolsBySender);
  }
  config.agents?.list?.forEach((agent, i) => {
    out.push([`agents.list[${i}].tools`, agent.tools], [`agents.list[${i}].tools.sandbox.tools`, agent.tools?.sandbox?.tools]);
    byKey(`agents.list[${i}].tools.byProvider`, agent.tools?.byProvider);
  });
  return out;
}

export interface PolicyLintOptions {
  /** Tool names per configured plugin id, where known (see `pluginToolsFromManifests`). */
  pluginTools?: Readonly<Record<string, readonly string[]>>;
}

/** Warnings (not errors: the config still loads) for policy entries that match nothing, with their paths. */
export function lintPolicyConfig(config: PincerConfig, options: PolicyLintOptions = {}): ConfigIssue[] {
  const plugins = (config.plugins ?? []).map((plugin) => plugin.id);
  const pluginTools = options.pluginTools ?? {};
  const vocabulary: PolicyVocabulary = {
    plugins: new Set(plugins.map(foldToolName)),
    tools: new Set(Object.values(pluginTools).flat().map(normalizeToolPolicyName)),
  };
  const complete = plugins.every((id) => id in pluginTools);
  const issues: ConfigIssue[] = [];
  for (const [base, policy] of policyObjects(config)) {
    for (const field of ['allow', 'alsoAllow', 'deny'] as const) {
      policy?.[field]?.forEach((entry, index) => {
        if (isKnownEntry(entry, vocabulary)) return;
        const suggestion = suggestEntry(entry, vocabulary);
        if (!complete && !suggestion && !normalizeToolPolicyName(entry).startsWith('group:')) return;
        const effect = field === 'deny' ? 'denies nothing' : 'allows nothing';
        issues.push({
          path: `${base}.${field}[${index}]`,
          message: `"${sanitizeAuditField(entry)}" matches no known tool, group or plugin, so it ${effect}${suggestion ? `; did you mean "${sanitizeAuditField(suggestion)}"?` : '.'}`,
        });
      });
    }
  }
  return issues;
}

/** Tool names of each configured plugin that ships a static manifest (plugins without one are left out). */
export function pluginToolsFromManifests(config: PincerConfig): Record<string, string[]> {
  const tools: Record<string, string[]> = {};
  for (const raw of config.plugins ?? []) {
    const parsed = PluginConfigSchema.safeParse(raw);
    const file = parsed.success ? manifestPath(parsed.data) : undefined;
    if (!parsed.success || !file) continue;
    try {
      // The manifest's tools come back unscreened (the host screens them); only their names matter here.
      const rawTools = loadManifest(parsed.data, file).rawTools;
      tools[raw.id] = (Array.isArray(rawTools) ? rawTools : []).flatMap((tool) => (typeof (tool as { name?: unknown })?.name === 'string' ? [(tool as { name: string }).name] : []));
    } catch {
      // An unreadable manifest is the host's error to report; here the plugin just stays unknown.
    }
  }
  return tools;
}
