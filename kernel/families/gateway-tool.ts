/**
 * The read-only `gateway` tool: the effective config with secrets redacted (`config.get`,
 * optionally one `path` subtree, refused when too large) and Pincer's config JSON Schema
 * (`config.schema.lookup`). It has no way to write: config writes and restarts exist only in
 * the system tool (kernel/system), which no run's tool set ever holds.
 */
import { configJsonSchema } from '../config/json-schema.js';
import type { PincerConfig } from '../config/schema.js';
import type { KernelTool, ToolResult } from '../gate/index.js';
import { configAtPath, effectiveRedactedConfig } from './config-view.js';
import { FamilyToolError, asToolResult, okResult, optionalString, requiredString } from './results.js';
import { lookupConfigSchema } from './schema-lookup.js';

export const GATEWAY_ACTIONS = ['config.get', 'config.schema.lookup'] as const;
export const DEFAULT_GATEWAY_RESULT_BYTES = 64 * 1024;

export const GATEWAY_SCHEMA: Record<string, unknown> = Object.freeze({
  type: 'object',
  properties: {
    action: { type: 'string', enum: [...GATEWAY_ACTIONS] },
    path: { type: 'string', description: 'Dotted config path, e.g. "tools.sandbox" or "agents.list[0]". config.get: optional (whole config); config.schema.lookup: required ("." for the top level).' },
  },
  required: ['action'],
  additionalProperties: false,
});

function sized(value: unknown, limit: number, tooLarge: () => FamilyToolError): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  if (Buffer.byteLength(text) > limit) throw tooLarge();
  return text;
}

function execute(config: PincerConfig, limit: number, params: Record<string, unknown>): ToolResult {
  const action = requiredString(params, 'action', `(one of: ${GATEWAY_ACTIONS.join(', ')})`);
  if (action === 'config.get') {
    const path = optionalString(params, 'path')?.trim();
    // Redaction happens on the whole config first: a path can only select among redacted values.
    const redacted = effectiveRedactedConfig(config);
    const value = path ? configAtPath(redacted, path) : redacted;
    const text = sized(value, limit, () => new FamilyToolError('CONFIG_TOO_LARGE', `config.get response is too large (over ${limit} bytes); use path to request a narrower config subtree.`, 'For example path "tools" or "agents.list[0]".'));
    return okResult(text, { action, ...(path ? { path } : {}) });
  }
  if (action === 'config.schema.lookup') {
    const path = requiredString(params, 'path', 'for config.schema.lookup ("." for the top level)');
    const found = lookupConfigSchema(configJsonSchema() as Record<string, unknown>, path);
    const text = sized(found, limit, () => new FamilyToolError('SCHEMA_TOO_LARGE', `the schema at ${JSON.stringify(path)} is too large to show (over ${limit} bytes); look up one of its children.`));
    return okResult(text, { action, path });
  }
  throw new FamilyToolError('UNKNOWN_ACTION', `Unknown action: ${JSON.stringify(action.slice(0, 64))}`, `The gateway tool is read-only; its actions are ${GATEWAY_ACTIONS.join(' and ')}. Config writes and restarts are not available to agents.`);
}

export function gatewayKernelTool(config: PincerConfig, parameters: Record<string, unknown>): KernelTool {
  const limit = config.tools?.gateway?.maxResultBytes ?? DEFAULT_GATEWAY_RESULT_BYTES;
  return {
    name: 'gateway',
    description: 'Read Pincer\'s effective config (secrets redacted) and its config schema. Read-only.',
    parameters,
    executionMode: 'parallel',
    execute: (params) => asToolResult(async () => execute(config, limit, params)),
  };
}
