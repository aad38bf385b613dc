/**
 * The kernel's `nodes` tool over the paired devices node plugins represent: list them, read
 * their status, notify, run a declared command through the fenced generic `invoke`, or fetch
 * media through the dedicated actions (images only, size-capped).
 */
import { NodeInvoke } from '../../protocol/index.js';
import type { KernelTool, ToolContent, ToolExecuteContext, ToolResult } from '../gate/index.js';
import type { NodeEndpoint } from './endpoints.js';
import { isKernelError } from '../host/index.js';
import { idempotencyKey, type EndpointCaller } from './endpoint-call.js';
import { MEDIA_ACTIONS, READ_ACTIONS, refuseGenericInvoke } from './node-commands.js';
import { describeNodeFailure, mediaContent, payloadText } from './node-results.js';
import { FamilyToolError, asToolResult, okResult, optionalString, requiredString } from './results.js';

export interface NodesBinding {
  sessionKey: string;
  agentId: string;
  nodes: ReadonlyMap<string, NodeEndpoint>;
}

/** Params a node command may receive (a notification, a command's options), as JSON text. */
const MAX_PARAMS_CHARS = 64 * 1024;

const ACTIONS = ['status', 'describe', 'notify', ...Object.keys(READ_ACTIONS), ...Object.keys(MEDIA_ACTIONS), 'invoke'];

export const NODES_SCHEMA: Record<string, unknown> = Object.freeze({
  type: 'object',
  properties: {
    action: { type: 'string', enum: ACTIONS, description: 'status lists the paired nodes; describe shows one node\'s commands; invoke runs one declared command.' },
    node: { type: 'string', description: 'Node id; may be left out when only one node is paired.' },
    title: { type: 'string', description: 'Notification title (notify).' },
    body: { type: 'string', description: 'Notification text (notify).' },
    invokeCommand: { type: 'string', description: 'Command to run (invoke), e.g. "device.status".' },
    invokeParamsJson: { type: 'string', description: 'JSON object of the command\'s parameters (invoke).' },
  },
  required: ['action'],
  additionalProperties: false,
});

function pickNode(binding: NodesBinding, requested: string | undefined): NodeEndpoint {
  const ids = [...binding.nodes.keys()];
  if (!requested) {
    if (binding.nodes.size === 1) return [...binding.nodes.values()][0];
    throw new FamilyToolError('INVALID_PARAMS', '"node" is required when several nodes are paired', `Nodes: ${ids.join(', ')}.`);
  }
  const node = binding.nodes.get(requested.trim().toLowerCase());
  if (!node) throw new FamilyToolError('UNKNOWN_NODE', `no paired node is named ${JSON.stringify(requested.slice(0, 64))}`, `Nodes: ${ids.join(', ')}.`);
  return node;
}

function parseInvokeParams(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new FamilyToolError('INVALID_PARAMS', `invokeParamsJson must be valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FamilyToolError('INVALID_PARAMS', 'invokeParamsJson must be a JSON object');
  return parsed as Record<string, unknown>;
}

function listNodes(binding: NodesBinding): ToolResult {
  const nodes = [...binding.nodes.values()].map(({ id, name, platform, commands }) => ({ id, name, platform, commands: commands.length }));
  return okResult(JSON.stringify({ nodes }, null, 2), { nodes });
}

async function run(binding: NodesBinding, caller: EndpointCaller, node: NodeEndpoint, command: string, params: Record<string, unknown>, ctx: ToolExecuteContext): Promise<unknown> {
  const declared = node.commands.find((c) => c.toLowerCase() === command.toLowerCase());
  if (!declared) {
    throw new FamilyToolError('NODE_COMMAND_UNSUPPORTED', `node "${node.id}" does not offer ${JSON.stringify(command.slice(0, 100))}`, `It offers: ${node.commands.join(', ') || 'nothing'}.`, { node: node.id });
  }
  const key = idempotencyKey('node', [binding.agentId, binding.sessionKey, ctx.toolCallId, node.id, declared]);
  const { timeoutMs } = caller.deadlineFor(node.pluginId);
  try {
    const answer = await caller.call(node.pluginId, NodeInvoke, { node: node.id, command: declared, params, idempotencyKey: key, source: { sessionKey: binding.sessionKey, agentId: binding.agentId } }, { timeoutMs, signal: ctx.signal });
    return answer.payload;
  } catch (error) {
    if (ctx.signal?.aborted || !isKernelError(error)) throw error;
    throw describeNodeFailure(error, node, declared);
  }
}

async function execute(binding: NodesBinding, caller: EndpointCaller, params: Record<string, unknown>, ctx: ToolExecuteContext): Promise<ToolResult> {
  const action = requiredString(params, 'action', `(one of: ${ACTIONS.join(', ')})`);
  const size = JSON.stringify(params).length;
  if (size > MAX_PARAMS_CHARS) throw new FamilyToolError('PARAMS_TOO_LARGE', `the parameters are ${size} characters; at most ${MAX_PARAMS_CHARS} are sent to a node. Nothing ran.`);
  if (action === 'status') return listNodes(binding);
  if (action === 'invoke') {
    const command = requiredString(params, 'invokeCommand', 'for action "invoke"');
    // Refused before the node is even chosen: no node may be handed these through the generic surface.
    const refusal = refuseGenericInvoke(command);
    if (refusal) throw new FamilyToolError(refusal.code, refusal.message, refusal.hint, { invokeCommand: command, ...(refusal.use ? { use: refusal.use } : {}) });
    const invokeParams = parseInvokeParams(optionalString(params, 'invokeParamsJson'));
    const node = pickNode(binding, optionalString(params, 'node'));
    const payload = await run(binding, caller, node, command, invokeParams, ctx);
    return okResult(payloadText(payload, command), { node: node.id, command });
  }
  const node = pickNode(binding, optionalString(params, 'node'));
  if (action === 'describe') return okResult(JSON.stringify({ id: node.id, name: node.name, platform: node.platform, commands: node.commands }, null, 2), { node: node.id });
  if (action === 'notify') {
    const body = requiredString(params, 'body', 'for action "notify"');
    await run(binding, caller, node, 'system.notify', { title: optionalString(params, 'title') ?? '', body }, ctx);
    return okResult(`Notified node "${node.id}".`, { node: node.id, command: 'system.notify' });
  }
  const readCommand = READ_ACTIONS[action];
  if (readCommand) return okResult(payloadText(await run(binding, caller, node, readCommand, {}, ctx), readCommand), { node: node.id, command: readCommand });
  const mediaCommand = MEDIA_ACTIONS[action];
  if (mediaCommand) {
    const image: ToolContent = mediaContent(await run(binding, caller, node, mediaCommand, {}, ctx), node.id, mediaCommand);
    return okResult(`${mediaCommand} from node "${node.id}":`, { node: node.id, command: mediaCommand }, [image]);
  }
  throw new FamilyToolError('UNKNOWN_ACTION', `unknown action ${JSON.stringify(action.slice(0, 64))}`, `Actions: ${ACTIONS.join(', ')}.`);
}

export function nodesKernelTool(binding: NodesBinding, parameters: Record<string, unknown>, caller: EndpointCaller): KernelTool {
  const names = [...binding.nodes.keys()].join(', ');
  return {
    name: 'nodes',
    description: `Paired devices (${names}): status, notifications, device information, and declared commands through invoke. Shell commands, media and file transfers are not run through invoke.`,
    parameters,
    executionMode: 'sequential',
    execute: (params, ctx) => asToolResult(() => execute(binding, caller, params, ctx)),
  };
}
