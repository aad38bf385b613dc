/**
 * Config discovery, in one place so every command agrees: `--config F`, else `$PINCER_CONFIG`,
 * else `./pincer.config.json` when present, else the kernel's embedded default (bundled plugins,
 * the coding profile, the current directory as the workspace).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliContext } from './context.js';
import { CliError } from './errors.js';
import type { ConfigIssue, KernelApi, PincerConfig } from './kernel.js';

export const DEFAULT_CONFIG_FILE = 'pincer.config.json';

export type ConfigSource =
  | { kind: 'flag' | 'env' | 'cwd'; path: string }
  | { kind: 'default' };

export function discoverConfig(ctx: CliContext, flag: string | undefined): ConfigSource {
  if (flag) return { kind: 'flag', path: resolve(ctx.cwd, flag) };
  if (ctx.env.PINCER_CONFIG) return { kind: 'env', path: resolve(ctx.cwd, ctx.env.PINCER_CONFIG) };
  const local = resolve(ctx.cwd, DEFAULT_CONFIG_FILE);
  if (existsSync(local)) return { kind: 'cwd', path: local };
  return { kind: 'default' };
}

export function describeSource(source: ConfigSource): string {
  switch (source.kind) {
    case 'flag':
      return source.path;
    case 'env':
      return `${source.path} (from $PINCER_CONFIG)`;
    case 'cwd':
      return source.path;
    case 'default':
      return 'embedded default';
  }
}

/** Loads the discovered config; kernel config errors become CONFIG errors carrying every issue. */
export async function loadDiscoveredConfig(
  ctx: CliContext,
  api: KernelApi,
  source: ConfigSource,
  workspace = ctx.cwd,
): Promise<PincerConfig> {
  if (source.kind === 'default') return api.defaultConfig({ cwd: workspace });
  try {
    return await api.loadConfig(source.path, { cwd: ctx.cwd });
  } catch (cause) {
    throw configError(cause, source);
  }
}

/** Maps the kernel's ConfigError (CONFIG_INVALID / CONFIG_NOT_FOUND / CONFIG_UNREADABLE). */
export function configError(cause: unknown, source: ConfigSource): CliError {
  const error = cause as { code?: string; message?: string; issues?: ConfigIssue[] };
  const where = describeSource(source);
  const issues = Array.isArray(error.issues) ? error.issues : [];
  const message =
    error.code === 'CONFIG_NOT_FOUND'
      ? `config file not found: ${where}`
      : error.code === 'CONFIG_INVALID'
        ? `config ${where} is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'})`
        : `cannot read config ${where}: ${error.message ?? String(cause)}`;
  return new CliError('CONFIG', message, {
    cause,
    data: { configCode: error.code, path: 'path' in source ? source.path : undefined, issues },
    hint: issues.length ? issues.map((i) => `  ${i.path || '(root)'}: ${i.message}`).join('\n') : undefined,
  });
}
