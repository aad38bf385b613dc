/**
 * Every configured plugin started for real (lazy ones too), with its start time: spawn to
 * handshake answer. A plugin that fails says why, with the fix its error code calls for.
 */
import { resolve } from 'node:path';
import type { ConfigSource } from '../config-source.js';
import type { Kernel, KernelApi, PincerConfig, PluginStatus } from '../kernel.js';
import { describeLastError } from '../commands/plugins.js';
import { line, type DoctorLine } from './types.js';

const FIXES: Record<string, string> = {
  PLUGIN_LOCATION_REFUSED: 'install the plugin outside every agent workspace and sandbox mount (see docs/plugins.md, "Where plugins may live")',
  SPAWN_FAILED: "check the plugin's module or command path and that its interpreter is installed",
  HANDSHAKE_FAILED: 'start the plugin by hand to see its error output, or raise timeouts.handshakeMs if it is only slow',
  VERSION_MISMATCH: 'use a build of the plugin that speaks the protocol this kernel speaks (the message names both)',
  INVALID_MANIFEST: 'rebuild the plugin so its pincer-plugin.json is regenerated, or drop "manifest" from its entry',
  PLUGIN_CRASHED: 'run the plugin\'s own tests; its log lines above the crash (PINCER_LOG=debug pincer plugins) say why',
};
const DEFAULT_FIX = "run 'PINCER_LOG=debug pincer plugins' to see the plugin's own log lines";

function describe(status: PluginStatus, wasLazy: boolean): DoctorLine {
  if (status.state === 'ready') {
    const facts = [`protocol ${status.protocolVersion ?? '?'}`, `version ${status.pluginVersion ?? status.version ?? '?'}`, `${status.tools} tools`];
    const rejected = status.rejectedTools?.length ? `; ${status.rejectedTools.length} tool(s) refused: ${status.rejectedTools.map((r) => r.reason).join('; ')}` : '';
    const timing = status.startMs === undefined ? 'started' : `started in ${status.startMs} ms`;
    return line('plugins', status.id, rejected ? 'warn' : 'ok', `${timing}${wasLazy ? ' (lazy: started here to check it)' : ''}; ${facts.join(', ')}${rejected}`, rejected ? 'fix or rename the refused tools in the plugin' : undefined);
  }
  const code = typeof status.lastError === 'object' ? status.lastError.code : undefined;
  const why = status.lastError ? describeLastError(status.lastError) : `state ${status.state}`;
  return line('plugins', status.id, 'fail', `does not start (${status.state}): ${why}`, FIXES[code ?? ''] ?? DEFAULT_FIX);
}

/** A plugin running without the confinement it declared (or with none, by `dangerouslyUnconfined`). */
function confinementLine(status: PluginStatus): DoctorLine[] {
  const warning = status.confinement?.warning;
  return warning ? [line('plugins', `${status.id} confinement`, 'warn', warning, 'install bubblewrap, or drop dangerouslyUnconfined from its entry (see docs/confinement.md)')] : [];
}

/**
 * Starts every plugin and reports each; `whileUp` runs on the same started kernel (the skills
 * check), so doctor starts the plugins once.
 */
export async function checkPlugins(
  api: KernelApi,
  config: PincerConfig,
  source: ConfigSource,
  cwd: string,
  whileUp: (kernel: Kernel) => Promise<DoctorLine[]> = async () => [],
): Promise<{ plugins: DoctorLine[]; more: DoctorLine[] }> {
  const entries = (config.plugins ?? []) as Array<{ id: string; lazy?: boolean }>;
  if (entries.length === 0) return { plugins: [line('plugins', '(none)', 'warn', 'no plugin is configured, so no run has any tool', "list plugins in the config ('pincer init' writes the bundled ones)")], more: [] };
  const lazy = new Set(entries.filter((p) => p.lazy).map((p) => p.id));
  const eager = { ...config, plugins: entries.map((p) => ({ ...p, lazy: false })) };
  // Quiet: every failure is reported on its own line with the plugin's last error.
  const kernel = api.createKernel(eager, { logger: () => undefined, cwd, configPath: 'path' in source ? resolve(cwd, source.path) : undefined });
  try {
    await kernel.start().catch(() => undefined); // a plugin that cannot start shows in its status
    const plugins = kernel.plugins().flatMap((status) => [describe(status, lazy.has(status.id)), ...confinementLine(status)]);
    return { plugins, more: await whileUp(kernel) };
  } finally {
    await kernel.stop().catch(() => undefined);
  }
}
