/**
 * Server failures in words an operator (and the model) can act on: which server, what happened,
 * and for HTTP authorization failures which login to run or which token to check.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isStdio, type ServerSettings } from '../config.js';
import { StdioServerTransport } from './stdio-transport.js';

/** The server cannot take calls now (not started, crashed, reconnecting, refused). */
export class ServerUnavailableError extends Error {
  readonly code = 'MCP_SERVER_UNAVAILABLE';
  constructor(
    readonly server: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message.startsWith('MCP server') ? message : `MCP server "${server}" is unavailable: ${message}`, options);
  }
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof UnauthorizedError || (error instanceof StreamableHTTPError && error.code === 401) || /\b401\b/.test(String((error as Error)?.message));
}

/** What to do about a 401: the login to run, or the token variable to check. */
export function unauthorizedHint(server: string, settings: ServerSettings): string {
  if (isStdio(settings)) return '';
  if (settings.oauth) return ` Run \`pincer mcp login ${server}\` to sign in again.`;
  if (settings.bearerTokenEnv) return ` Check the token in ${settings.bearerTokenEnv}.`;
  return ` The server needs authorization: set bearerTokenEnv, or oauth and run \`pincer mcp login ${server}\`.`;
}

export function describeServerError(server: string, settings: ServerSettings, error: unknown, transport?: Transport): string {
  if (error instanceof ServerUnavailableError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  if (isUnauthorized(error)) return `MCP server "${server}" answered 401 Unauthorized.${unauthorizedHint(server, settings)}`;
  const tail = transport instanceof StdioServerTransport ? transport.stderrTail.describe() : '';
  const where = isStdio(settings) ? `command ${JSON.stringify(settings.command)}` : settings.url;
  return `MCP server "${server}" (${where}) could not be reached: ${message}${tail}`;
}
