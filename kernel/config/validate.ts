/**
 * Config validation and loading: every problem reported with its config path.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { PincerConfigSchema, type PincerConfig } from './schema.js';
import { ConfigError, type ConfigIssue } from './errors.js';

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

/** Semantic checks zod cannot express: duplicate ids, agents naming unknown plugins. */
function crossCheck(config: PincerConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const pluginIds = new Set<string>();
  config.plugins?.forEach((plugin, index) => {
    if (pluginIds.has(plugin.id)) issues.push({ path: `plugins[${index}].id`, message: `duplicate plugin id "${plugin.id}"` });
    pluginIds.add(plugin.id);
  });
  const agentIds = new Set<string>();
  config.agents?.list?.forEach((agent, index) => {
    if (agentIds.has(agent.id)) issues.push({ path: `agents.list[${index}].id`, message: `duplicate agent id "${agent.id}"` });
    agentIds.add(agent.id);
    agent.plugins?.forEach((id, j) => {
      if (config.plugins && !pluginIds.has(id)) issues.push({ path: `agents.list[${index}].plugins[${j}]`, message: `no plugin with id "${id}" is configured under plugins[]` });
    });
  });
  return issues;
}

/** Validate raw config; returns every issue instead of throwing. */
export function checkConfig(raw: unknown): { ok: true; config: PincerConfig; issues: [] } | { ok: false; issues: ConfigIssue[] } {
  const parsed = PincerConfigSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: toIssues(parsed.error) };
  const issues = crossCheck(parsed.data);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, config: parsed.data, issues: [] };
}

/** Validate raw config or throw a ConfigError listing every issue. */
export function parseConfig(raw: unknown, source = 'config'): PincerConfig {
  const result = checkConfig(raw);
  if (!result.ok) throw new ConfigError('CONFIG_INVALID', `${source} is invalid`, result.issues, source);
  return result.config;
}

/** Read and validate a JSON config file. */
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
    raw = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError('CONFIG_INVALID', `${file} is not valid JSON: ${(cause as Error).message}`, [{ path: '(root)', message: 'not valid JSON' }], file, { cause });
  }
  return parseConfig(raw, file);
}
