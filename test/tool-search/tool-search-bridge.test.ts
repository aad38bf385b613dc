/** Tool search over a real bridged MCP server, through the kernel and through pincer serve. */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, tempWorkspace, writeConfig } from '../cli/helpers/built-cli.js';
import { EVERYTHING, nodeServer, startBridgeKernel, text, type BridgeKernel } from '../mcp/helpers/bridge-kernel.js';

let bk: BridgeKernel | undefined;
afterEach(async () => {
  await bk?.stop();
  bk = undefined;
});

describe('tool search over server-everything', () => {
  it('lists only tool_search for the deferred MCP tools, finds them ranked, and makes them callable for the session', async () => {
    bk = await startBridgeKernel({ tools: { profile: 'coding', deny: ['everything__get-env'], toolSearch: { enabled: true } }, mcp: { servers: { everything: nodeServer(EVERYTHING, ['stdio']) } } });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'tool_search'));
    expect(toolSet.tools.map((t) => t.name)).toEqual(['tool_search']);
    const before = await toolSet.execute('everything__echo', { message: 'x' });
    expect(text(before)).toMatch(/not loaded yet: call tool_search/);
    const found = await toolSet.execute('tool_search', { query: 'echo back the input' });
    expect(JSON.parse(text(found)).matches[0].name).toBe('everything__echo');
    expect(text(await toolSet.execute('everything__echo', { message: 'found it' }))).toContain('Echo: found it');
    // The next assembly of the same session lists it; another session starts from nothing.
    expect(bk.kernel.assembleTools({}).tools.map((t) => t.name)).toContain('everything__echo');
    expect(bk.kernel.assembleTools({ sessionKey: 'agent:main:other' }).tools.map((t) => t.name)).toEqual(['tool_search']);
    // Policy first: a denied tool is never found, however it is searched for.
    expect(text(await toolSet.execute('tool_search', { pattern: 'get-env' }))).toMatch(/No tool matches/);
  });
});

describe('tool search behind pincer serve', () => {
  const ws = tempWorkspace();
  afterAll(() => ws.cleanup());
  let client: Client | undefined;
  afterEach(async () => client?.close());

  it('tells the client about the tools a search found', async () => {
    const file = await writeConfig(ws.dir, (c) => {
      c.tools = { ...c.tools, toolSearch: { enabled: true } };
      c.mcp = { servers: { everything: nodeServer(EVERYTHING, ['stdio']) } };
    });
    client = new Client({ name: 'search-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve'], cwd: ws.dir, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PINCER_STATE_DIR: join(ws.dir, '.state') }, stderr: 'ignore' }));
    for (let i = 0; i < 200 && !(await client.listTools()).tools.some((t) => t.name === 'tool_search'); i++) await new Promise((r) => setTimeout(r, 100));
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('everything__get-sum');
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await client.callTool({ name: 'tool_search', arguments: { query: 'sum of two numbers' } });
    for (let i = 0; i < 100 && changed === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(changed).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('everything__get-sum');
    const sum = await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 3 } });
    expect(JSON.stringify(sum.content)).toContain('5');
  });
});
