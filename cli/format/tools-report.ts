/**
 * The `pincer tools` report: the effective tool table, what each layer removed and why, and the
 * assembly's warnings. Pure string building, so it is tested without a kernel.
 */
import type { Colors } from './color.js';
import { describeBlock } from './explain.js';
import { renderTable } from './table.js';
import type { PolicyRemoval, RunContext, ToolSet } from '../kernel.js';

export interface ReportOptions {
  colors: Colors;
  width?: number;
  configSource: string;
}

export function formatToolsReport(run: RunContext, toolSet: ToolSet, options: ReportOptions): string {
  const { colors: c } = options;
  const sections: string[] = [];
  const count = toolSet.tools.length;
  sections.push(
    `${c.bold(`${count} tool${count === 1 ? '' : 's'}`)} for ${describeRun(run, toolSet)} ${c.dim(`· sandbox ${describeSandbox(toolSet.sandbox)} ·${toolSet.workspace ? ` workspace ${toolSet.workspace} ·` : ''} config ${options.configSource}`)}`,
  );

  if (count > 0) {
    const rows = toolSet.tools.map((t) => [c.cyan(t.name), t.pluginId ?? c.dim('core'), t.description]);
    sections.push(renderTable([{ header: 'NAME' }, { header: 'PLUGIN' }, { header: 'DESCRIPTION' }], rows, { width: options.width, headerStyle: c.bold }));
  } else {
    sections.push(c.yellow('No tools: every tool was removed by policy (see below), or no plugin contributes any.'));
  }

  if (toolSet.removed.length > 0) {
    // The config key, not the layer's label, is what an operator edits; --json keeps the label.
    const rows = toolSet.removed.map((r) => [r.tool, r.layer, describeRule(r), r.configKey ?? c.dim('(not from config)')]);
    sections.push(
      `${c.bold(`Removed (${toolSet.removed.length})`)}\n${renderTable(
        [{ header: 'TOOL' }, { header: 'LAYER' }, { header: 'RULE' }, { header: 'CONFIG KEY' }],
        rows,
        { width: options.width, headerStyle: c.bold },
      )}`,
    );
  }

  if (toolSet.blocked) {
    // Listing the tools without this would suggest they can be called: every call is vetoed.
    sections.push(`${c.red(c.bold('Every call is blocked'))} (${toolSet.blocked.code}): ${describeBlock(toolSet.blocked)}\n  Fix or restart it: see 'pincer plugins'.`);
  }

  if (toolSet.warnings.length > 0) {
    sections.push(`${c.bold(`Warnings (${toolSet.warnings.length})`)}\n${toolSet.warnings.map((w) => `  ${c.yellow('!')} ${w}`).join('\n')}`);
  }
  return sections.join('\n\n');
}

/** "deny: exec, group:runtime" or "not in allow: read, write". */
export function describeRule(removal: PolicyRemoval): string {
  const entries = removal.matchedRules.length ? removal.matchedRules.join(', ') : '(empty)';
  return removal.ruleKind === 'deny' ? `deny: ${entries}` : `not in allow: ${entries}`;
}

/** "agent main, sender @alice, provider openai/gpt-5"; the resolved agent when the tool set knows it. */
export function describeRun(run: RunContext, toolSet?: Pick<ToolSet, 'run'>): string {
  const parts = [`agent ${run.agentId ?? toolSet?.run?.agentId ?? '(default)'}`];
  if (run.sessionKey) parts.push(`session ${run.sessionKey}`);
  if (run.sender) parts.push(`sender ${run.sender.username ? `@${run.sender.username}` : (run.sender.e164 ?? run.sender.id ?? run.sender.name)}`);
  if (run.groupId) parts.push(`group ${run.groupId}`);
  if (run.provider) parts.push(`provider ${run.provider}${run.model ? `/${run.model}` : ''}`);
  else if (run.model) parts.push(`model ${run.model}`);
  return parts.join(', ');
}

export function describeSandbox(sandbox: ToolSet['sandbox']): string {
  if (!sandbox.sandboxed) return `off (mode ${sandbox.mode})`;
  return `on (${sandbox.backend ?? 'default backend'}, mode ${sandbox.mode})`;
}

/** The `--json` shape: stable keys, full schemas, for scripts. */
export function toolsReportJson(run: RunContext, toolSet: ToolSet, configSource: string): Record<string, unknown> {
  return {
    config: configSource,
    run,
    tools: toolSet.tools.map((t) => ({ name: t.name, pluginId: t.pluginId ?? null, description: t.description, inputSchema: t.inputSchema })),
    removed: toolSet.removed,
    warnings: toolSet.warnings,
    effectiveAllowlist: toolSet.effectiveAllowlist,
    sandbox: toolSet.sandbox,
    workspace: toolSet.workspace,
    blocked: toolSet.blocked ?? null,
  };
}
