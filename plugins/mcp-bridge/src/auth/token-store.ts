/**
 * OAuth state of one HTTP server, in the bridge's data directory (`oauth/<server>.json`,
 * owner-only): the registered client, the tokens with the time they were saved (to know when they
 * expire), and the PKCE verifier of a login in progress. `pincer mcp login` writes it; the bridge
 * reads it and saves refreshed tokens back.
 */
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { readJsonFile, writeJsonFileAtomic } from '../state-file.js';

export interface StoredOAuth {
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When `tokens` were saved (ms since epoch); with `expires_in` this dates their expiry. */
  savedAt?: number;
  codeVerifier?: string;
  /** The loopback redirect the client was registered with. */
  redirectUrl?: string;
}

export function oauthFile(dataDir: string, server: string): string {
  // Server names are config keys; keep the file name to safe characters.
  return join(dataDir, 'oauth', `${server.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
}

export class TokenStore {
  constructor(readonly path: string) {}

  read(): StoredOAuth {
    const data = readJsonFile(this.path);
    return data && typeof data === 'object' ? (data as StoredOAuth) : {};
  }

  update(change: Partial<StoredOAuth>): void {
    writeJsonFileAtomic(this.path, { ...this.read(), ...change });
  }

  /** When the access token expires (ms since epoch), or undefined when the server did not say. */
  expiresAt(stored = this.read()): number | undefined {
    const seconds = stored.tokens?.expires_in;
    return typeof seconds === 'number' && stored.savedAt !== undefined ? stored.savedAt + seconds * 1000 : undefined;
  }
}
