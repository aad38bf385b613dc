/**
 * Config validation and loading: every problem reported with its config path.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { collidingIds, foldId } from '../policy/id-match.js';
import { PincerConfigSchema, type PincerConfig } from './schema.js';
import { ConfigError, type ConfigIssue } from './errors.js';
import { parseJsonWithComments } from './jsonc.js';
import { lintPolicyConfig } from './lint.js';

/** `agents.list[0].tools.allow[2]` from zod's path segments. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out || '(root)';
}

function toIssues(error: z.ZodError): ConfigIssue[] {
  return error.issues.map((issue) => ({ path: formatConfigPath(issue.path), message: issue.message }));
}

/** Keys of one map that the id-matching rule (trimmed, case-insensitive) cannot tell apart. */
function ambiguousKeys(path: string, map: Record<string, unknown> | undefined): ConfigIssue[] {
  return collidingIds(Object.keys(map ?? {})).map(([first, later]) => ({
    path: `${path}.${later}`,
    message: `"${later}" and "${first}" name the same id (ids compare trimmed and case-insensitively); keep one`,
  }));
}

/** Semantic checks zod cannot express: duplicate ids, ambiguous keys, references to unknown plugins. */
function crossCheck(config: PincerConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const pluginIds = new Set<string>();
  config.plugins?.forEach((plugin, index) => {
    if (pluginIds.has(plugin.id)) issues.push({ path: `plugins[${index}].id`, message: `duplicate plugin id "${plugin.id}"` });
    pluginIds.add(plugin.id);
  });
  const unknownPlugin = (path: string, id: string) => {
    if (config.plugins && !pluginIds.has(id)) issues.push({ path, message: `no plugin with id "${id}" is configured under plugins[]` });
  };
  const agentIds = new Map<string, string>();
  config.agents?.list?.forEach((agent, index) => {
    const first = agentIds.get(foldId(agent.id));
    if (first === undefined) agentIds.set(foldId(agent.id), agent.id);
    else issues.push({ path: `agents.list[${index}].id`, message: first === agent.id ? `duplicate agent id "${agent.id}"` : `agent id "${agent.id}" is the same id as "${first}" (ids compare case-insensitively)` });
    agent.plugins?.forEach((id, j) => unknownPlugin(`agents.list[${index}].plugins[${j}]`, id));
    issues.push(...ambiguousKeys(`agents.list[${index}].tools.byProvider`, agent.tools?.byProvider));
  });
  config.agents?.defaults?.plugins?.forEach((id, j) => unknownPlugin(`agents.defaults.plugins[${j}]`, id));
  issues.push(...ambiguousKeys('groups', config.groups), ...ambiguousKeys('tools.byProvider', config.tools?.byProvider), ...ambiguousKeys('tools.toolsBySender', config.tools?.toolsBySender));
  for (const [id, group] of Object.entries(config.groups ?? {})) issues.push(...ambiguousKeys(`groups.${id}.toolsBySender`, group.toolsBySender));
  issues.push(...ambiguousKeys('backendPlugins', config.backendPlugins));
  for (const [backend, id] of Object.entries(config.backendPlugins ?? {})) unknownPlugin(`backendPlugins.${backend}`, id);
  return issues;
}

/**
 * Validate raw config; returns every issue instead of throwing. `warnings` are policy entries
 * that match nothing (see `lintPolicyConfig`): the config is valid, but they do nothing.
 */
export function checkConfig(raw: unknown): { ok: true; config: PincerConfig; issues: []; warnings: ConfigIssue[] } | { ok: false; issues: ConfigIssue[]; warnings: ConfigIssue[] } {
  const parsed = PincerConfigSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: toIssues(parsed.error), warnings: [] };
  const issues = crossCheck(parsed.data);
  const warnings = lintPolicyConfig(parsed.data);
  return issues.length > 0 ? { ok: false, issues, warnings } : { ok: true, config: parsed.data, issues: [], warnings };
}

/** Validate raw config or throw a ConfigError listing every issue. */
export function parseConfig(raw: unknown, source = 'config'): PincerConfig {
  const result = checkConfig(raw);
  if (!result.ok) throw new ConfigError('CONFIG_INVALID', `${source} is invalid`, result.issues, source);
  return result.config;
}

/** Read and validate a JSON config file; comments are allowed (see jsonc.ts). */
export async function loadConfigFile(path: string, options: { cwd?: string } = {}): Promise<PincerConfig> {
  const file = resolve(options.cwd ?? process.cwd(), path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'CONFIG_NOT_FOUND' : 'CONFIG_UNREADABLE';
    throw new ConfigError(code, `cannot read config file ${file}`, [], file, { cause });
  }
  let raw: unknown;
  try {
    raw = parseJsonWithComments(text);
  } catch (cause) {
    throw new ConfigError('CONFIG_INVALID', `${file} is not valid JSON: ${(cause as Error).message}`, [{ path: '(root)', message: 'not valid JSON' }], file, { cause });
  }
  return parseConfig(raw, file);
}
