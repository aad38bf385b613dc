/** `pincer plugins`: the supervisor's view of every plugin. */
import { COMMON_OPTIONS, expectPositionals, parseFlags } from '../args.js';
import { describeSource } from '../config-source.js';
import { out, outJson, terminalWidth, type CliContext, type Command } from '../context.js';
import { renderTable } from '../format/table.js';
import type { PluginLastError, PluginStatus } from '../kernel.js';
import { withKernel } from '../kernel-session.js';

export const pluginsCommand: Command = {
  name: 'plugins',
  summary: "Show each plugin's state, version, protocol, restarts and last error",
  help: `Usage: pincer plugins [--config F] [--json]

Starts the kernel with the configured plugins and prints each plugin's state
(lazy, starting, ready, restarting, failed, stopped), version, negotiated
protocol version, restart count, tool count and last error, and under a
plugin the parts it reports (each MCP server of the MCP bridge: idle,
connecting, ready, reconnecting, failed or denied, with its last error).
Lazy plugins have no process until a call needs them. A plugin that runs
without the bubblewrap sandbox its manifest declares is listed below the
table with why (docs/confinement.md); --json shows every plugin's confinement.

Exit status: 0 when every plugin is serving (or lazy), 1 when one is failed
or restarting after a crash (usable as a health check).

Options:
  -c, --config F   config file (else $PINCER_CONFIG, ./pincer.config.json, embedded default)
      --json       machine-readable output`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('plugins', argv, COMMON_OPTIONS);
    expectPositionals('plugins', positionals, 0, 0, 'no arguments');
    return withKernel(ctx, { configFlag: values.config }, async ({ kernel, source }) => {
      const plugins = kernel.plugins();
      if (values.json) outJson(ctx, { config: describeSource(source), plugins });
      else out(ctx, formatPlugins(ctx, plugins));
      return unhealthyPlugins(plugins).length > 0 ? 1 : 0;
    });
  },
};

export function formatPlugins(ctx: CliContext, plugins: PluginStatus[]): string {
  const c = ctx.colors;
  if (plugins.length === 0) return c.yellow('No plugins are enabled.');
  const state = (s: PluginStatus['state']) =>
    s === 'ready' ? c.green(s) : s === 'failed' ? c.red(s) : s === 'restarting' || s === 'starting' ? c.yellow(s) : c.dim(s);
  const rows = plugins.flatMap((p) => [
    [
      p.id,
      state(p.state),
      p.version ?? p.pluginVersion ?? '-',
      p.protocolVersion === undefined ? '-' : String(p.protocolVersion),
      String(p.restarts),
      String(p.tools),
      p.lastError ? c.red(describeLastError(p.lastError)) : '',
    ],
    ...componentRows(ctx, p),
  ]);
  const refused = plugins.flatMap((p) => (p.rejectedTools ?? []).map((r) => `  ${c.yellow('refused tool')} ${r.reason}`));
  // A plugin that runs without the sandbox it declared (docs/confinement.md), or a dangerous mode.
  const unconfined = plugins.flatMap((p) => (p.confinement?.warning ? [`  ${c.yellow('confinement')} ${p.confinement.warning}`] : []));
  const notes = [...refused, ...unconfined];
  return renderTable(
    [
      { header: 'PLUGIN' },
      { header: 'STATE' },
      { header: 'VERSION' },
      { header: 'PROTOCOL' },
      { header: 'RESTARTS', align: 'right' },
      { header: 'TOOLS', align: 'right' },
      { header: 'LAST ERROR' },
    ],
    rows,
    { width: terminalWidth(ctx), headerStyle: c.bold },
  ) + (notes.length > 0 ? `\n\n${notes.join('\n')}` : '');
}

/** One row per part a plugin reported (each MCP server of the bridge): its state, detail and last error. */
function componentRows(ctx: CliContext, plugin: PluginStatus): string[][] {
  const c = ctx.colors;
  const state = (s: string) => (s === 'ready' ? c.green(s) : s === 'failed' ? c.red(s) : s === 'connecting' || s === 'reconnecting' ? c.yellow(s) : c.dim(s));
  return (plugin.components ?? []).map((part) => [
    `  ${part.kind === 'mcp-server' ? 'server' : part.kind} ${part.name}`,
    state(part.state),
    '',
    '',
    '',
    '',
    [part.detail ? c.dim(part.detail) : '', part.lastError ? c.red(part.lastError) : ''].filter(Boolean).join(' · '),
  ]);
}

/**
 * Plugins that are not serving their tools: failed for good, or restarting after a crash (a wrong
 * module path restarts until the crash limit, and its tools are missing all that time).
 */
export function unhealthyPlugins(plugins: readonly PluginStatus[]): PluginStatus[] {
  return plugins.filter((p) => p.state === 'failed' || p.state === 'restarting');
}

/** "Plugins not serving (n)" with each plugin's state and last error, for reports beside a tool list. */
export function formatPluginProblems(ctx: CliContext, problems: readonly PluginStatus[]): string {
  const c = ctx.colors;
  const lines = problems.map((p) => `  ${c.red('✗')} ${p.id} ${c.red(p.state)}${p.lastError ? `: ${describeLastError(p.lastError)}` : ''}`);
  return `${c.bold(`Plugins not serving (${problems.length})`)}\n${lines.join('\n')}\nRun 'pincer plugins' for details; a wrong module or command path is resolved against the config file's folder.`;
}

/** "PLUGIN_CRASHED: exited with code 1" from either shape the kernel reports. */
export function describeLastError(error: PluginLastError): string {
  if (typeof error === 'string') return error;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
