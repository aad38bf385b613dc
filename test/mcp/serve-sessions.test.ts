/**
 * Which session an MCP client is: its own non-main session by default (so `non-main` sandboxes
 * it and clients never see each other's background runs), the main one only by `--session main`,
 * and the startup line says which, with the agent, sandbox state and workspace.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, tempWorkspace, writeConfig } from '../cli/helpers/built-cli.js';
import { connectClient, startServe, type ServeProcess } from './helpers/serve-process.js';

beforeAll(() => ensureBuilt());

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close().catch(() => undefined)));
});

async function stdioClient(cwd: string, args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', ...args], cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'sessions-test', version: '1' });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, stderr: () => stderr };
}

const text = (result: Record<string, unknown>) => ((result.content ?? []) as { text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('the session of an MCP client', () => {
  const ws = tempWorkspace();
  afterAll(() => ws.cleanup());

  it('gives each HTTP client its own session, so one never sees the background runs of another', async () => {
    const server: ServeProcess = await startServe(ws.dir, ['--http', '0']);
    closers.push(() => server.stop());
    const alice = await connectClient(server, server.token, 'alice');
    const mallory = await connectClient(server, server.token, 'mallory');
    closers.push(() => alice.close(), () => mallory.close());

    const started = await alice.callTool({ name: 'exec', arguments: { command: 'sleep 30', background: true } });
    const runId = /Started background run (run_[0-9a-f]+)/.exec(text(started))?.[1];
    expect(runId, text(started)).toBeDefined();
    expect(text(await alice.callTool({ name: 'process', arguments: { action: 'list' } }))).toContain(runId);

    expect(text(await mallory.callTool({ name: 'process', arguments: { action: 'list' } }))).not.toContain(runId);
    const poll = await mallory.callTool({ name: 'process', arguments: { action: 'poll', sessionId: runId } });
    expect(text(poll)).not.toContain('still running');
    await alice.callTool({ name: 'process', arguments: { action: 'kill', sessionId: runId } });

    const opened = server.stderr().match(/client session (agent:main:mcp:[0-9a-f-]{36}) opened/g) ?? [];
    expect(new Set(opened).size).toBe(2);
  });

  it('prints the agent, its own session, the sandbox state and the workspace at startup', async () => {
    const { client, stderr } = await stdioClient(ws.dir, []);
    await client.listTools();
    expect(stderr()).toMatch(new RegExp(`pincer serve: \\d+ tools for agent main · session agent:main:mcp:[0-9a-f-]{36} \\(this client's own\\) · sandbox off \\(mode off\\) · workspace ${ws.dir} · config embedded default · on stdio`));
  });

  it('sandboxes a client under non-main, and gives the main session only when asked by --session main', async () => {
    const file = await writeConfig(ws.dir, (c) => {
      c.agents.defaults = { sandbox: { mode: 'non-main', backend: 'local' } };
      c.tools = { ...c.tools, sandbox: { tools: { deny: ['exec'] } } };
    }, 'non-main.json');

    const own = await stdioClient(ws.dir, ['--config', file]);
    expect((await own.client.listTools()).tools.map((t) => t.name)).not.toContain('exec');
    expect(own.stderr()).toContain('sandbox on (local, mode non-main)');

    const main = await stdioClient(ws.dir, ['--config', file, '--session', 'main']);
    expect((await main.client.listTools()).tools.map((t) => t.name)).toContain('exec');
    expect(main.stderr()).toContain('session main (shared by every client) · sandbox off (mode non-main)');
  });
});
