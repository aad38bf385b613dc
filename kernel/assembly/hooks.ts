/**
 * Plugin hooks as the gate sees them: each contributed `before_tool_call` becomes a handler
 * that calls into the plugin's process, and each `after_tool_call` an observer.
 */
import type { AfterToolCallObserver, HookRegistration } from '../gate/index.js';
import type { PluginHost } from '../host/index.js';
import { createToolPolicyMatcher } from '../../sdk/policy/index.js';

/** A hook's `tools` list (names or globs, policy-normalized); missing or empty = every tool. */
function toolMatcher(tools: readonly string[] | undefined): ((name: string) => boolean) | undefined {
  if (!tools || tools.length === 0) return undefined;
  return createToolPolicyMatcher({ allow: [...tools] }, false);
}

/** Hook registrations of the enabled plugins, in plugin order (the gate sorts by priority). */
export function collectHooks(host: PluginHost, enabled: readonly string[] | undefined): { before: HookRegistration[]; after: AfterToolCallObserver[] } {
  const before: HookRegistration[] = [];
  const after: AfterToolCallObserver[] = [];
  for (const plugin of host.contributions()) {
    if (enabled && !enabled.includes(plugin.pluginId)) continue;
    for (const hook of plugin.contributes.hooks) {
      const matches = toolMatcher(hook.tools);
      if (hook.name === 'before_tool_call') {
        before.push({
          pluginId: plugin.pluginId,
          priority: hook.priority,
          timeoutMs: hook.timeoutMs,
          toolMatcher: matches,
          handler: (event) =>
            host.callHook(plugin.pluginId, 'before_tool_call', {
              toolName: event.toolName,
              params: event.params,
              toolCallId: event.toolCallId,
              sessionKey: event.sessionKey,
              agentId: event.agentId,
              toolPluginId: event.pluginId,
            }) as never,
        });
      } else {
        after.push({
          pluginId: plugin.pluginId,
          toolMatcher: matches,
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
  return { before, after };
}
