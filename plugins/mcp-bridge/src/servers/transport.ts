/**
 * The transport for one server: stdio through the lifeline, or Streamable HTTP with the
 * configured headers, a bearer token from the environment, or the OAuth tokens of
 * `pincer mcp login`. A missing token variable is a configuration error naming it.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isStdio, type ServerSettings } from '../config.js';
import type { OAuthProviderFactory } from '../auth/provider-factory.js';
import { serverEnv, StdioServerTransport } from './stdio-transport.js';

/** Largest single message taken from a server (a tool list or a result). */
export const MAX_SERVER_MESSAGE_BYTES = 16 * 1024 * 1024;

export class ServerConfigError extends Error {
  readonly code = 'MCP_SERVER_CONFIG';
}

export interface TransportDeps {
  env: NodeJS.ProcessEnv;
  onNoise(message: string): void;
  oauth?: OAuthProviderFactory;
}

export function createServerTransport(serverName: string, settings: ServerSettings, deps: TransportDeps): Transport {
  if (isStdio(settings)) {
    return new StdioServerTransport({
      command: settings.command,
      args: settings.args,
      env: serverEnv(deps.env, settings.passEnv, settings.env),
      cwd: settings.cwd,
      maxMessageBytes: MAX_SERVER_MESSAGE_BYTES,
      onNoise: deps.onNoise,
    });
  }
  const headers: Record<string, string> = { ...settings.headers };
  if (settings.bearerTokenEnv) {
    const token = deps.env[settings.bearerTokenEnv];
    if (!token) {
      throw new ServerConfigError(
        `MCP server "${serverName}": the environment variable ${settings.bearerTokenEnv} (bearerTokenEnv) is not set; set it where pincer runs (the kernel passes it to the bridge)`,
      );
    }
    headers.Authorization = `Bearer ${token}`;
  }
  const authProvider = settings.oauth ? deps.oauth?.(serverName, settings) : undefined;
  return new StreamableHTTPClientTransport(new URL(settings.url), { requestInit: { headers }, authProvider });
}
