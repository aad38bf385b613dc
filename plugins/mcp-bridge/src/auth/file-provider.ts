/**
 * The OAuth client the bridge uses at run time for a server configured with `oauth`: tokens from
 * the store `pincer mcp login` filled, refreshed shortly before they expire (and by the SDK on a
 * 401), refreshed tokens saved back. The bridge cannot open a browser: when a new sign-in is
 * needed it fails with the login command to run.
 */
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { HttpServerSettings } from '../config.js';
import { bridgeDataDir } from '../state-file.js';
import { oauthFile, TokenStore } from './token-store.js';

/** Refresh this long before the access token expires. */
export const REFRESH_BEFORE_EXPIRY_MS = 60_000;

export class LoginRequiredError extends Error {
  readonly code = 'MCP_LOGIN_REQUIRED';
}

export class StoredOAuthProvider implements OAuthClientProvider {
  #refreshing = false;

  constructor(
    readonly server: string,
    readonly settings: HttpServerSettings,
    readonly store: TokenStore,
    private readonly redirect?: string,
  ) {}

  get redirectUrl(): string | undefined {
    return this.redirect ?? this.store.read().redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = typeof this.settings.oauth === 'object' ? this.settings.oauth.scope : undefined;
    return {
      client_name: 'Pincer MCP bridge',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(scope ? { scope } : {}),
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.store.read().clientInformation;
  }

  saveClientInformation(clientInformation: OAuthClientInformationMixed): void {
    this.store.update({ clientInformation });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = this.store.read();
    const expiresAt = this.store.expiresAt(stored);
    if (!this.#refreshing && stored.tokens?.refresh_token && expiresAt !== undefined && expiresAt - Date.now() < REFRESH_BEFORE_EXPIRY_MS) {
      this.#refreshing = true;
      try {
        // With a refresh token, auth() refreshes (and saves) instead of starting a sign-in.
        await auth(this, { serverUrl: this.settings.url });
      } catch {
        // The request goes out with the old token; a 401 then names the login to run.
      } finally {
        this.#refreshing = false;
      }
      return this.store.read().tokens;
    }
    return stored.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.update({ tokens, savedAt: Date.now() });
  }

  redirectToAuthorization(_authorizationUrl: URL): void {
    throw new LoginRequiredError(`MCP server "${this.server}" needs a new sign-in: run \`pincer mcp login ${this.server}\``);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.store.update({ codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this.store.read().codeVerifier;
    if (!verifier) throw new LoginRequiredError(`no sign-in of MCP server "${this.server}" is in progress: run \`pincer mcp login ${this.server}\``);
    return verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all') this.store.update({ clientInformation: undefined, tokens: undefined, codeVerifier: undefined });
    else if (scope === 'client') this.store.update({ clientInformation: undefined });
    else if (scope === 'tokens') this.store.update({ tokens: undefined });
    else if (scope === 'verifier') this.store.update({ codeVerifier: undefined });
  }
}

/** The bridge's factory: each OAuth server's provider over its file in the data directory. */
export function fileOAuthProvider(server: string, settings: HttpServerSettings): OAuthClientProvider {
  return new StoredOAuthProvider(server, settings, new TokenStore(oauthFile(bridgeDataDir().dir, server)));
}
