/**
 * The config as `pincer config check` judges it: the file loads and passes the schema, plugins
 * resolve, docker settings pass the security validation; overrides and dead policy entries warn.
 */
import { configError, describeSource, type ConfigSource } from '../config-source.js';
import { configFindings } from '../check/config-findings.js';
import type { CliContext } from '../context.js';
import type { ConfigIssue, KernelApi, PincerConfig } from '../kernel.js';
import { line, type DoctorLine } from './types.js';

export interface ConfigOutcome {
  lines: DoctorLine[];
  /** The loaded config, unless it does not load. */
  config?: PincerConfig;
}

const at = (issue: ConfigIssue) => issue.path || '(root)';

export async function checkConfigFile(ctx: CliContext, api: KernelApi, source: ConfigSource, workspace: string): Promise<ConfigOutcome> {
  const where = describeSource(source);
  let config: PincerConfig;
  try {
    config = source.kind === 'default' ? api.defaultConfig({ cwd: workspace }) : await api.loadConfig(source.path, { cwd: ctx.cwd });
  } catch (cause) {
    const error = configError(cause, source);
    const issues = (error.data?.issues as ConfigIssue[] | undefined) ?? [];
    const fix = source.kind === 'default' ? undefined : `edit ${source.path}; 'pincer config check' lists the same problems`;
    if (issues.length === 0) return { lines: [line('config', where, 'fail', error.message, fix ?? 'check the file name and its permissions')] };
    return { lines: issues.map((issue) => line('config', at(issue), 'fail', issue.message, fix)) };
  }
  const found = configFindings(api, config, ctx.cwd, ctx.env);
  const lines = [
    line('config', where, found.issues.length ? 'fail' : 'ok', found.issues.length ? `${found.issues.length} problem(s) the first call would meet` : 'loads; plugins resolve; sandbox settings pass the security validation'),
    ...found.issues.map((issue) => line('config', at(issue), 'fail', issue.message, 'fix this entry (relative paths resolve against the config file\'s folder)')),
    ...found.overrides.map((issue) => line('config', at(issue), 'warn', `dangerous override in effect: ${issue.message}`, 'remove it unless this sandbox must run without that fence')),
    ...found.policy.map((issue) => line('config', at(issue), 'warn', issue.message, 'correct the entry or remove it')),
  ];
  return { lines, config };
}
