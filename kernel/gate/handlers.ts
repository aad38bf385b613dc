import { DEFAULT_HOOK_TIMEOUT_MS, resolveTimeoutMs } from './with-timeout.js';
import type { ChainHandler } from './handler-chain.js';
import type { HookRegistration, TrustedToolPolicy } from './types.js';

/**
 * Plugin hooks that apply to a tool, highest priority first; ties keep registration order
 * (Array.prototype.sort is stable). A matcher that throws counts as a match: excluding a
 * hook because its matcher crashed would fail open.
 */
export function selectHooks(hooks: readonly HookRegistration[], toolName: string): HookRegistration[] {
  return hooks
    .filter((hook) => {
      if (!hook.toolMatcher) return true;
      try {
        return hook.toolMatcher(toolName);
      } catch {
        return true;
      }
    })
    .sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0));
}

/** Adapt a plugin hook to a chain handler. */
export function hookHandler(hook: HookRegistration, defaultTimeoutMs = DEFAULT_HOOK_TIMEOUT_MS): ChainHandler {
  return {
    sourceId: hook.pluginId,
    label: `before_tool_call hook of plugin "${hook.pluginId}"`,
    timeoutMs: resolveTimeoutMs(hook.timeoutMs, defaultTimeoutMs),
    blockCode: 'HOOK_BLOCKED',
    invoke: (event, run) => hook.handler(event, run),
  };
}

/** Adapt a trusted policy: `allow: false` blocks, with `blocked by <id>` as the default reason. */
export function trustedPolicyHandler(policy: TrustedToolPolicy, defaultTimeoutMs = DEFAULT_HOOK_TIMEOUT_MS): ChainHandler {
  return {
    sourceId: policy.pluginId ?? policy.id,
    label: `trusted tool policy "${policy.id}"`,
    timeoutMs: resolveTimeoutMs(policy.timeoutMs, defaultTimeoutMs),
    blockCode: policy.blockCode ?? 'POLICY_BLOCKED',
    invoke: (event, run) => policy.evaluate(event, run),
    adapt: ({ allow, ...rest }) => {
      const blocked = allow === false || rest.block === true;
      return blocked ? { ...rest, block: true, blockReason: rest.blockReason ?? `blocked by ${policy.id}` } : rest;
    },
  };
}
