import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO, ensureBuilt, pincer, tempWorkspace, writeConfig } from '../cli/helpers/built-cli.js';

beforeAll(() => ensureBuilt());

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

/** A real MCP client spawning `node dist/cli/main.js serve` in `cwd`. */
async function serve(cwd: string, args: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...args],
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'pincer-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

describe('pincer serve with the MCP SDK client over stdio', () => {
  const ws = tempWorkspace();
  afterAll(() => ws.cleanup());

  it('identifies itself and lists the default coding tools with object schemas', async () => {
    const { client } = await serve(ws.dir);
    expect(client.getServerVersion()?.name).toBe('pincer');
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['read', 'write', 'exec']));
    for (const tool of tools) expect(tool.inputSchema.type, tool.name).toBe('object');
  });

  it('reads a workspace file through the gate and the local sandbox', async () => {
    const { client } = await serve(ws.dir);
    const result = await client.callTool({ name: 'read', arguments: { path: 'hello.txt' } });
    expect(result.isError).toBeFalsy();
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
    expect(text).toContain('hello from pincer');
  });

  it('answers a call of a policy-denied tool with an error result naming the rule', async () => {
    const file = await writeConfig(ws.dir, (c) => {
      c.tools = { ...c.tools, deny: ['exec'] };
    }, 'serve-deny.json');
    const { client } = await serve(ws.dir, ['--config', file]);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('exec');
    const result = await client.callTool({ name: 'exec', arguments: { command: 'echo hi' } });
    expect(result.isError).toBe(true);
    // The library's wording in every door: the rule's key, never how to change it (9.1, 23.6).
    expect((result.content as { text: string }[])[0].text).toContain('the global policy layer denies it (tools.deny matched "exec")');
    expect(result._meta?.['pincer/outcome']).toMatchObject({ outcome: 'denied', code: 'TOOL_REMOVED' });
  });

  it('refuses a path outside the workspace with an error result, not a protocol error', async () => {
    const { client } = await serve(ws.dir);
    const result = await client.callTool({ name: 'read', arguments: { path: '../../../etc/passwd' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).not.toContain('root:');
  });

  it('answers arguments that fail the tool schema with an INVALID_PARAMS error result naming them', async () => {
    const { client } = await serve(ws.dir);
    const result = await client.callTool({ name: 'read', arguments: { path: 5 } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toMatch(/^Error \[INVALID_PARAMS\]: Invalid arguments for read: path: Invalid input: expected string, received number\.\nHint: /);
  });

  it('refuses an unknown agent with the CLI error shape, not a stack trace', async () => {
    const { code, stdout, stderr } = await pincer(['serve', '--agent', 'ghost'], { cwd: ws.dir, input: '' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('pincer: no agent "ghost" in agents.list (configured: main)');
    expect(stderr).not.toMatch(/RunContextError|\n\s+at /);
  });

  it('keeps stdout clean: logs go to stderr', async () => {
    const { client, stderr } = await serve(ws.dir);
    await client.listTools();
    expect(stderr()).toContain('pincer serve:');
  });

  it('sends tools/list_changed when a crashing plugin is marked failed and its tools leave', async () => {
    // A fixture plugin whose `boom` tool kills its own process: after the supervisor's crash limit
    // the plugin is failed, the kernel reports the change, and serve re-assembles and announces it.
    const file = await writeConfig(ws.dir, (c) => {
      c.plugins = [...c.plugins, { id: 'crashy', module: join(REPO, 'dist/test/fixtures/plugins/crash-mid-call.js') }];
      c.tools = { ...c.tools, alsoAllow: ['ok', 'boom'] };
    }, 'serve-crashy.json');
    const { client } = await serve(ws.dir, ['--config', file]);
    let changed = false;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed = true));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('boom');

    const deadline = Date.now() + 20_000;
    while (!changed && Date.now() < deadline) {
      const result = await client.callTool({ name: 'boom', arguments: {} });
      expect(result.isError).toBe(true); // each crash fails its call with an error, never silently
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(changed).toBe(true);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('boom');
    expect(names).toContain('read');
  });
});
