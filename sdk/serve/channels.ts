/**
 * The plugin side of channels and nodes: `channel/action` and `node/invoke` dispatched to the
 * handlers the plugin defined. Params are validated here; the kernel has already checked the
 * action against the channel's declaration and refused what nodes must never run.
 */
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { ChannelAction, ChannelActionParams, ChannelActionResult, NodeInvoke, NodeInvokeParams, ProtocolErrorCodes } from '../../protocol/index.js';
import type { ChannelDefinition, NodeDefinition, PluginDefinition } from '../plugin/types.js';
import { signalFor } from './call-signal.js';
import { baseContext } from './context.js';
import type { PluginState } from './handlers.js';
import { guarded } from './wire-errors.js';

export function registerChannelHandlers(conn: MessageConnection, state: PluginState, plugin: PluginDefinition): void {
  // Read at call time: `activate` may have filled the list from settings.
  const channel = (id: string): ChannelDefinition | undefined => (plugin.channels ?? []).find((c) => c.id === id);
  conn.onRequest(ChannelAction.type, async (raw, token) => {
    const call = signalFor(token, state.shutdown.signal);
    const out = await guarded(call, undefined, async () => {
      const request = ChannelActionParams.parse(raw);
      const target = channel(request.channel);
      if (!target) throw new ResponseError(ProtocolErrorCodes.CapabilityMissing, `no channel "${request.channel}" in this plugin`);
      if (!target.actions.includes(request.action)) throw new ResponseError(ProtocolErrorCodes.CapabilityMissing, `channel "${target.id}" does not support "${request.action}"`);
      return ChannelActionResult.parse(await target.handle(request, baseContext(call, state.settings, state.log)));
    });
    call.dispose();
    return out;
  });
}

export function registerNodeHandlers(conn: MessageConnection, state: PluginState, plugin: PluginDefinition): void {
  const node = (id: string): NodeDefinition | undefined => (plugin.nodes ?? []).find((n) => n.id === id);
  conn.onRequest(NodeInvoke.type, async (raw, token) => {
    const call = signalFor(token, state.shutdown.signal);
    const out = await guarded(call, undefined, async () => {
      const request = NodeInvokeParams.parse(raw);
      const target = node(request.node);
      const handler = target && Object.hasOwn(target.commands, request.command) ? target.commands[request.command] : undefined;
      if (!handler) throw new ResponseError(ProtocolErrorCodes.CapabilityMissing, `node "${request.node}" has no command "${request.command}"`);
      return { payload: (await handler(request.params, Object.assign(baseContext(call, state.settings, state.log), { request }))) ?? null };
    });
    call.dispose();
    return out;
  });
}
