/** Human output of `pincer sandbox list | check`: aligned tables and a per-backend check report. */
import type { CliContext } from '../context.js';
import { terminalWidth } from '../context.js';
import type { PluginProblem } from '../check/plugin-resolution.js';
import type { BackendCheck } from '../sandbox/check-types.js';
import { renderTable } from './table.js';

/** One listed sandbox, as both the table and `--json` show it. */
export interface SandboxRow {
  name: string;
  backend: string;
  scope?: string;
  scopeKey: string;
  agentId?: string;
  image?: string;
  state: 'running' | 'stopped';
  createdAt: string;
  /** Null when no registry recorded a use (prune then measures idleness from creation). */
  lastUsedAt: string | null;
  configHash?: string;
  /** Whether the container runs the current config; null when it could not be computed. */
  configMatches: boolean | null;
}

/** `42s ago`, `5m ago`, `3h ago`, `2d ago`: enough to judge idleness at a glance. */
export function ago(iso: string | null, now: number): string {
  if (!iso) return '-';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

export function formatSandboxList(ctx: CliContext, rows: SandboxRow[], now = Date.now()): string {
  const c = ctx.colors;
  if (rows.length === 0) return c.dim('No sandbox containers.');
  const match = (m: boolean | null) => (m === null ? c.dim('?') : m ? c.green('yes') : c.yellow('no (recreate to apply)'));
  const body = rows.map((r) => [
    r.name,
    r.scopeKey,
    r.agentId ?? '-',
    r.image ?? '-',
    r.state === 'running' ? c.green(r.state) : c.dim(r.state),
    ago(r.createdAt, now),
    ago(r.lastUsedAt, now),
    match(r.configMatches),
  ]);
  const columns = ['NAME', 'SCOPE KEY', 'AGENT', 'IMAGE', 'STATE', 'CREATED', 'LAST USED', 'CONFIG'].map((header) => ({ header }));
  return renderTable(columns, body, { width: terminalWidth(ctx), headerStyle: c.bold });
}

/** `✓ docker` followed by one indented line per step; failures in red with the fix in the detail. */
export function formatCheck(ctx: CliContext, backends: BackendCheck[]): string {
  const c = ctx.colors;
  if (backends.length === 0) return c.dim('No sandbox backend is configured; nothing to check.');
  const lines: string[] = [];
  for (const b of backends) {
    const mark = b.checked === false ? c.yellow('-') : b.ok ? c.green('✓') : c.red('✗');
    const status = b.checked === false ? c.yellow('not checked') : b.ok ? c.green('ok') : c.red('FAILED');
    lines.push(`${mark} ${c.bold(b.backend)}${b.agent ? ` (agent ${b.agent})` : ''}: ${status}`);
    for (const step of b.checks) {
      const stepMark = step.ok ? c.green('✓') : c.red('✗');
      lines.push(`    ${stepMark} ${step.name.padEnd(15)} ${step.ok ? step.detail : c.red(step.detail)}`);
    }
  }
  return lines.join('\n');
}

/** `✗ plugins: 2 cannot start`, then each entry's config path and why, as `pincer config check` words it. */
export function formatPluginProblems(ctx: CliContext, problems: readonly PluginProblem[]): string {
  const c = ctx.colors;
  const lines = [`${c.red('✗')} ${c.bold('plugins')}: ${c.red(`${problems.length} cannot start`)}`];
  for (const p of problems) lines.push(`    ${c.red('✗')} ${p.path.padEnd(15)} ${c.red(p.message)}`);
  return lines.join('\n');
}
