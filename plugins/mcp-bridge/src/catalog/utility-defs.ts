/** The utility tools a server gets when it declares resources or prompts (SPEC §7). */
import type { UtilityOperation } from './types.js';

interface UtilityDefinition {
  description(server: string): string;
  inputSchema: Record<string, unknown>;
}

const cursor = { cursor: { type: 'string', description: 'The nextCursor of a previous page, to list the next one.' } };

export const UTILITY_TOOLS: Readonly<Record<UtilityOperation, UtilityDefinition>> = Object.freeze({
  resources_list: {
    description: (server) => `List the resources that MCP server "${server}" offers (URI, name, MIME type).`,
    inputSchema: { type: 'object', properties: { ...cursor }, additionalProperties: false },
  },
  resources_read: {
    description: (server) => `Read one resource of MCP server "${server}" by its URI.`,
    inputSchema: { type: 'object', properties: { uri: { type: 'string', description: 'The resource URI, as resources_list gives it.' } }, required: ['uri'], additionalProperties: false },
  },
  prompts_list: {
    description: (server) => `List the prompts that MCP server "${server}" offers, with their arguments.`,
    inputSchema: { type: 'object', properties: { ...cursor }, additionalProperties: false },
  },
  prompts_get: {
    description: (server) => `Get one prompt of MCP server "${server}", filled with its arguments.`,
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The prompt name, as prompts_list gives it.' },
        arguments: { type: 'object', additionalProperties: { type: 'string' }, description: 'The prompt arguments by name.' },
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
});
