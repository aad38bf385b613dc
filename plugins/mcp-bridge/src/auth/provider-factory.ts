/** Makes the OAuth client provider of an HTTP server that uses `pincer mcp login` tokens. */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { HttpServerSettings } from '../config.js';

export type OAuthProviderFactory = (serverName: string, settings: HttpServerSettings) => OAuthClientProvider;
