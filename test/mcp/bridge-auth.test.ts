/**
 * Authorization of remote (Streamable HTTP) MCP servers: a bearer token from the environment, and
 * `pincer mcp login` running the MCP SDK's OAuth flow against a real authorization server (a
 * fixture), with the tokens stored owner-only, used and refreshed by the bridge, and a 401
 * mid-session naming the login to run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../cli/helpers/built-cli.js';
import { fixtureServer, startBridgeKernel, text, type BridgeKernel } from './helpers/bridge-kernel.js';

interface Fixture {
  child: ChildProcess;
  url: string;
  stats(): Promise<{ refreshes: number; exchanges: number }>;
}

async function startOAuthServer(env: Record<string, string> = {}): Promise<Fixture> {
  const child = spawn(process.execPath, [fixtureServer('oauth-http')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`oauth fixture exited ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return { child, url: `${base}/mcp`, stats: async () => (await fetch(`${base}/stats`)).json() as never };
}

/** Runs `pincer mcp login` and plays the browser: follows the printed URL back to the loopback callback. */
function login(config: string, stateDir: string, server: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'mcp', 'login', server, '--no-browser', '--config', config], { env: { PATH: process.env.PATH, HOME: process.env.HOME, PINCER_STATE_DIR: stateDir, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  let followed = false;
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    const url = /\n\s+(http\S+)\n/.exec(stderr)?.[1];
    if (url && !followed) {
      followed = true;
      void fetch(url, { redirect: 'follow' }).catch(() => undefined);
    }
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const dir = mkdtempSync(join(tmpdir(), 'pincer-mcp-auth-'));
const fixtures: Fixture[] = [];
let bk: BridgeKernel | undefined;
afterEach(async () => {
  await bk?.stop();
  bk = undefined;
});
afterAll(() => {
  for (const f of fixtures) f.child.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('a bearer token from the environment', () => {
  it('authorizes the bridge, and a wrong one is a 401 that names the variable to check', async () => {
    const fixture = await startOAuthServer({ MCP_FIXTURE_STATIC_TOKEN: 'right-token-123' });
    fixtures.push(fixture);
    process.env.PINCER_TEST_MCP_TOKEN = 'right-token-123';
    bk = await startBridgeKernel({ mcp: { servers: { remote: { url: fixture.url, bearerTokenEnv: 'PINCER_TEST_MCP_TOKEN' } } } });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'remote__whoami'));
    expect(text(await toolSet.execute('remote__whoami', {}))).toContain('signed in');
    await bk.stop();
    process.env.PINCER_TEST_MCP_TOKEN = 'wrong-token';
    bk = await startBridgeKernel({ mcp: { servers: { remote: { url: fixture.url, bearerTokenEnv: 'PINCER_TEST_MCP_TOKEN' } } } });
    const status = await (async () => {
      for (let i = 0; i < 200; i++) {
        const s = bk!.servers().find((x) => x.lastError);
        if (s) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('no error reported');
    })();
    expect(status.lastError).toContain('401 Unauthorized');
    expect(status.lastError).toContain('PINCER_TEST_MCP_TOKEN');
    delete process.env.PINCER_TEST_MCP_TOKEN;
  });
});

describe('pincer mcp login', () => {
  let fixture: Fixture;
  let config: string;
  let stateDir: string;
  beforeAll(async () => {
    fixture = await startOAuthServer({ MCP_FIXTURE_TOKEN_TTL_S: '30' });
    fixtures.push(fixture);
    stateDir = mkdtempSync(join(dir, 'state-'));
    config = join(dir, 'pincer.config.json');
    writeFileSync(config, JSON.stringify({ mcp: { servers: { remote: { url: fixture.url, oauth: true } } } }));
  });

  it('signs in through the loopback callback and stores the tokens owner-only', async () => {
    const run = await login(config, stateDir, 'remote');
    expect(run.stderr).toContain('Sign in to MCP server "remote"');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Signed in to MCP server "remote"');
    const file = join(stateDir, 'plugins/mcp-bridge/oauth/remote.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await fixture.stats()).exchanges).toBe(1);
  });

  it('lets the bridge call the server with the stored tokens, refreshing them before they expire', async () => {
    bk = await startBridgeKernel({ mcp: { servers: { remote: { url: fixture.url, oauth: true } } } }, { stateDir });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'remote__whoami'));
    expect(text(await toolSet.execute('remote__whoami', {}))).toContain('signed in');
    // The fixture's tokens live 30 s, inside the 60 s refresh margin: the bridge refreshed instead of waiting for a 401.
    expect((await fixture.stats()).refreshes).toBeGreaterThan(0);
  });

  it('answers a 401 mid-session with the login command to run', async () => {
    bk = await startBridgeKernel({ mcp: { servers: { remote: { url: fixture.url, oauth: true } } } }, { stateDir });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'remote__whoami'));
    await fetch(fixture.url.replace('/mcp', '/revoke'), { method: 'POST' });
    const result = await toolSet.execute('remote__whoami', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('pincer mcp login remote');
  });
});
