/**
 * Plugin hooks as the gate sees them: each contributed `before_tool_call` becomes a handler
 * that calls into the plugin's process, and each `after_tool_call` an observer. A hook's
 * `tools` filter is checked first (9.11): a guard whose filter names nothing real would
 * silently never run, so it fails every call closed instead, naming the plugin.
 */
import { CORE_TOOL_GROUPS } from '../../protocol/vocabulary/index.js';
import type { AfterToolCallObserver, HookRegistration } from '../gate/index.js';
import type { PluginHost } from '../host/index.js';
import { createToolPolicyMatcher, normalizeToolPolicyName } from '../../sdk/policy/index.js';

/** A hook whose `tools` filter cannot be trusted, and why. */
export interface HookFilterProblem {
  pluginId: string;
  hook: string;
  problems: string[];
}

export class HookFilterError extends Error {
  override readonly name = 'HookFilterError';
  readonly code = 'INVALID_HOOK_FILTER';
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHAR = /[\u0000-\u001f\u007f]/;

/** Problems of one filter: every entry must be a canonical tool name that exists, a core group, or a glob. */
export function hookFilterProblems(tools: readonly string[] | undefined, isKnownTool: (name: string) => boolean): string[] {
  const problems: string[] = [];
  for (const entry of tools ?? []) {
    const canonical = normalizeToolPolicyName(entry);
    if (!canonical) problems.push(`${JSON.stringify(entry)} is empty`);
    else if (canonical !== entry) problems.push(`"${entry}" is not a canonical tool name (write "${canonical}")`);
    // No tool name holds one, and a glob that does only matched another list's cache key once.
    else if (CONTROL_CHAR.test(entry)) problems.push(`${JSON.stringify(entry)} contains a control character`);
    else if (entry.includes('*')) continue;
    else if (entry.startsWith('group:')) {
      if (!CORE_TOOL_GROUPS.has(entry)) problems.push(`"${entry}" is not a core tool group`);
    } else if (!isKnownTool(entry)) problems.push(`"${entry}" is neither a core tool nor a tool of a configured plugin`);
  }
  return problems;
}

/** A hook's `tools` list (names or globs, policy-normalized); missing or empty = every tool. */
function toolMatcher(tools: readonly string[] | undefined): ((name: string) => boolean) | undefined {
  if (!tools || tools.length === 0) return undefined;
  return createToolPolicyMatcher({ allow: [...tools] }, false);
}

/** Hook registrations of the enabled plugins, in plugin order (the gate sorts by priority). */
export function collectHooks(
  host: PluginHost,
  enabled: readonly string[] | undefined,
  isKnownTool: (name: string) => boolean,
): { before: HookRegistration[]; after: AfterToolCallObserver[]; problems: HookFilterProblem[] } {
  const before: HookRegistration[] = [];
  const after: AfterToolCallObserver[] = [];
  const problems: HookFilterProblem[] = [];
  for (const plugin of host.contributions()) {
    if (enabled && !enabled.includes(plugin.pluginId)) continue;
    for (const hook of plugin.contributes.hooks) {
      const filterProblems = hookFilterProblems(hook.tools, isKnownTool);
      if (filterProblems.length) problems.push({ pluginId: plugin.pluginId, hook: hook.name, problems: filterProblems });
      if (hook.name === 'before_tool_call') {
        const invalid = filterProblems.length
          ? new HookFilterError(`before_tool_call hook of plugin "${plugin.pluginId}" has an invalid tools filter: ${filterProblems.join('; ')}`)
          : undefined;
        before.push({
          pluginId: plugin.pluginId,
          priority: hook.priority,
          timeoutMs: hook.timeoutMs,
          // An invalid filter matches every tool, and the handler fails: closed, never skipped.
          toolMatcher: invalid ? undefined : toolMatcher(hook.tools),
          handler: (event) => {
            if (invalid) return Promise.reject(invalid);
            return host.callHook(plugin.pluginId, 'before_tool_call', {
              toolName: event.toolName,
              params: event.params,
              toolCallId: event.toolCallId,
              sessionKey: event.sessionKey,
              agentId: event.agentId,
              toolPluginId: event.pluginId,
            }) as never;
          },
        });
      } else {
        after.push({
          pluginId: plugin.pluginId,
          toolMatcher: toolMatcher(hook.tools),
          timeoutMs: hook.timeoutMs,
          handler: (event, ctx) =>
            host.callHook(plugin.pluginId, 'after_tool_call', {
              toolName: event.toolName,
              toolCallId: event.toolCallId,
              params: (event.params && typeof event.params === 'object' ? event.params : {}) as Record<string, unknown>,
              sessionKey: ctx.sessionKey,
              agentId: ctx.agentId,
              toolPluginId: event.pluginId,
              result: event.result,
              error: event.error ? `${event.error.errorClass}: ${event.error.message}` : undefined,
              durationMs: event.durationMs,
            }),
        });
      }
    }
  }
  return { before, after, problems };
}
