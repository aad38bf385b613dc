/**
 * `pincer mcp login SERVER`: the MCP SDK's OAuth client flow for one HTTP server configured with
 * `oauth`. A loopback listener (127.0.0.1, a free port, path /callback) receives the authorization
 * code; PKCE, dynamic client registration and the token exchange are the SDK's. The tokens land
 * owner-only in the bridge's data directory, where the running bridge reads (and refreshes) them.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { StoredOAuthProvider } from '../../plugins/mcp-bridge/src/auth/file-provider.js';
import { oauthFile, TokenStore } from '../../plugins/mcp-bridge/src/auth/token-store.js';
import type { HttpServerSettings } from '../../protocol/v1/mcp-config.js';
import { err, out, outJson, type CliContext } from '../context.js';
import { CliError, usageError } from '../errors.js';
import type { BridgeData } from './bridge-data.js';

/** How long the loopback listener waits for the browser to come back. */
const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** The login-time provider: same store as the bridge's, but it hands the sign-in URL to the caller. */
class LoginProvider extends StoredOAuthProvider {
  authorizationUrl: URL | undefined;
  readonly #state = randomBytes(16).toString('base64url');

  state(): string {
    return this.#state;
  }

  override redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
}

export async function runLogin(ctx: CliContext, data: BridgeData, server: string, options: { openBrowser: boolean; json: boolean }): Promise<number> {
  const settings = data.servers[server];
  if (!settings) throw usageError(`no MCP server "${server}" in mcp.servers (configured: ${Object.keys(data.servers).join(', ')})`, 'mcp');
  if ('command' in settings || !settings.oauth) throw usageError(`MCP server "${server}" is not an HTTP server with "oauth" set; only those sign in with pincer mcp login`, 'mcp');
  const listener = createServer();
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  try {
    const redirect = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
    const store = new TokenStore(oauthFile(data.dataDir, server));
    // A fresh sign-in: a new loopback port means a new redirect URI, so the client registers again.
    store.update({ tokens: undefined, clientInformation: undefined, codeVerifier: undefined, redirectUrl: redirect });
    const provider = new LoginProvider(server, settings as HttpServerSettings, store, redirect);
    const scope = typeof settings.oauth === 'object' ? settings.oauth.scope : undefined;
    const callback = waitForCallback(listener, provider.state());
    const first = await auth(provider, { serverUrl: settings.url, scope });
    if (first === 'REDIRECT') {
      const url = provider.authorizationUrl!.toString();
      err(ctx, `Sign in to MCP server "${server}" at:\n  ${url}\nWaiting for the answer on ${redirect} …`);
      if (options.openBrowser) openBrowser(url);
      const code = await callback;
      const second = await auth(provider, { serverUrl: settings.url, authorizationCode: code, scope });
      if (second !== 'AUTHORIZED') throw new CliError('CALL_FAILED', `the authorization server did not grant tokens for "${server}"`);
    }
    const file = store.path;
    if (options.json) outJson(ctx, { server, signedIn: true, tokenFile: file });
    else out(ctx, `Signed in to MCP server "${server}"; tokens stored owner-only in ${file}. The bridge uses them from its next connection.`);
    return 0;
  } finally {
    listener.closeAllConnections();
    listener.close();
  }
}

/** The authorization code the browser brings back to /callback, after checking `state`. */
function waitForCallback(listener: Server, state: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new CliError('CALL_FAILED', `no answer from the authorization page within ${LOGIN_TIMEOUT_MS / 60_000} minutes`)), LOGIN_TIMEOUT_MS);
    timer.unref();
    listener.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') return void res.writeHead(404).end();
      const code = url.searchParams.get('code');
      const problem = url.searchParams.get('error') ?? (url.searchParams.get('state') !== state ? 'the state does not match this sign-in' : !code ? 'no authorization code' : undefined);
      res.writeHead(problem ? 400 : 200, { 'content-type': 'text/plain; charset=utf-8' }).end(problem ? `Sign-in failed: ${problem}` : 'Signed in. You can close this page and return to the terminal.');
      clearTimeout(timer);
      if (problem) reject(new CliError('CALL_FAILED', `sign-in failed: ${problem}`));
      else resolve(code!);
    });
  });
}

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined); // no browser here: the URL is printed anyway
  child.unref();
}
