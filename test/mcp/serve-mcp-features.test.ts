/**
 * `pincer serve` as MCP clients expect it, with the MCP SDK client over stdio: tool metadata and
 * structured results (validated by the client), progress notifications, approvals answered by
 * elicitation, bridged MCP servers whose list changes reach the client, and names mapped into
 * what clients accept.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CliLogger } from '../../cli/logger.js';
import { createMcpServer } from '../../cli/serve/mcp-server.js';
import { ToolBridge } from '../../cli/serve/tool-bridge.js';
import { CLI, ensureBuilt, tempWorkspace, writeConfig } from '../cli/helpers/built-cli.js';
import { FakeKernel } from '../cli/helpers/fake-kernel.js';
import { fixtureServer } from './helpers/bridge-kernel.js';

beforeAll(() => ensureBuilt());
const ws = tempWorkspace();
afterAll(() => ws.cleanup());
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> };

async function serve(args: string[], options: { elicit?: (message: string) => Answer } = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...args],
    cwd: ws.dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', PINCER_STATE_DIR: join(ws.dir, '.state') },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'features-test', version: '1' }, { capabilities: options.elicit ? { elicitation: { form: {} } } : {} });
  if (options.elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => options.elicit!(request.params.message));
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe('tool metadata and structured results', () => {
  it('lists titles and truthful hints of the fs and shell families, with object output schemas', async () => {
    const client = await serve([]);
    const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
    expect(tools.read).toMatchObject({ title: 'Read a file', annotations: { readOnlyHint: true } });
    expect(tools.ls.annotations?.readOnlyHint).toBe(true);
    for (const name of ['write', 'edit', 'apply_patch']) expect(tools[name].annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.exec.annotations).toMatchObject({ openWorldHint: true, destructiveHint: true });
    for (const tool of Object.values(tools)) if (tool.outputSchema) expect(tool.outputSchema.type).toBe('object');
  });

  it('returns structuredContent that the MCP client validates against the output schema', async () => {
    const client = await serve([]);
    await client.listTools(); // the client validates results against the schemas it listed
    const read = await client.callTool({ name: 'read', arguments: { path: 'hello.txt' } });
    expect(read.structuredContent).toMatchObject({ path: expect.stringMatching(/hello\.txt$/), totalLines: 1, truncated: false });
    const exec = await client.callTool({ name: 'exec', arguments: { command: 'exit 3' } });
    expect(exec.isError).toBe(true);
    const ok = await client.callTool({ name: 'exec', arguments: { command: 'echo hi' } });
    expect(ok.structuredContent).toMatchObject({ exitCode: 0, timedOut: false });
  });
});

describe('a bridged MCP server behind pincer serve', () => {
  it('relays progress with its messages to a client that sent a progress token', async () => {
    const file = await writeConfig(ws.dir, (c) => {
      c.mcp = { servers: { slow: { command: process.execPath, args: [fixtureServer('hangs')] } } };
    }, 'progress.json');
    const client = await serve(['--config', file]);
    await waitForTool(client, 'slow__progress');
    const seen: { progress: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'slow__progress', arguments: { steps: 3, intervalMs: 100 } }, undefined, { onprogress: (p) => void seen.push(p) });
    expect(JSON.stringify(result.content)).toContain('done after 3 steps');
    // The SDK client drops a progress notification that arrives together with the result (it handles
    // notifications a tick later than responses), so the last step may be missing; the rest is in order.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.map((p) => p.message)).toEqual(['step 1', 'step 2', 'step 3'].slice(0, seen.length));
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3].slice(0, seen.length));
  });

  it('tells the client when the server’s tool list changes', async () => {
    const file = await writeConfig(ws.dir, (c) => {
      c.mcp = { servers: { ch: { command: process.execPath, args: [fixtureServer('changes-definition')] } } };
    }, 'changes.json');
    const client = await serve(['--config', file]);
    await waitForTool(client, 'ch__add_tool');
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notified++);
    await client.callTool({ name: 'ch__add_tool', arguments: {} });
    await waitFor(() => notified > 0, 'list_changed');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('ch__extra');
  });
});

describe('a plugin flooding tool-list updates', () => {
  it('reaches the client as a handful of list_changed notifications, ending on the final list', async () => {
    const file = await writeConfig(ws.dir, (c) => {
      c.plugins.push({ id: 'flood', module: join(CLI, '../../test/fixtures/plugins/floods-tool-updates.js') });
      c.tools = { ...c.tools, alsoAllow: ['flood'] };
    }, 'flood.json');
    const client = await serve(['--config', file]);
    await waitForTool(client, 'flood_updates');
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notified++);
    await client.callTool({ name: 'flood_updates', arguments: { count: 4000 } });
    await waitForTool(client, 'generated_4000');
    await new Promise((r) => setTimeout(r, 1_000)); // room for any late notification
    // The host coalesces updates per plugin (250 ms window) and serve announces only real changes.
    expect(notified).toBeGreaterThan(0);
    expect(notified).toBeLessThan(20);
    const names = (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('generated_'));
    expect(names).toEqual(['generated_4000']);
  }, 60_000);
});

describe('approvals by elicitation', () => {
  let config: string;
  beforeAll(async () => {
    config = await writeConfig(ws.dir, (c) => {
      c.plugins.push({ id: 'asks-approval', module: join(CLI, '../../test/fixtures/plugins/asks-approval.js') });
      c.tools = { ...c.tools, alsoAllow: ['deploy'] };
    }, 'approvals.json');
  });

  it('asks the client, bound to the digest of the call, and runs the call it approved', async () => {
    const messages: string[] = [];
    const client = await serve(['--config', config], { elicit: (message) => (messages.push(message), { action: 'accept', content: { decision: 'allow-once' } }) });
    const result = await client.callTool({ name: 'deploy', arguments: { target: 'prod' } });
    expect(JSON.stringify(result.content)).toContain('deployed to prod');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('Deploy to prod?');
    expect(messages[0]).toMatch(/bound to sha256:[0-9a-f]{64}/);
    expect(messages[0]).toContain('"target": "prod"');
  });

  it('does not run a call the user declined', async () => {
    const client = await serve(['--config', config], { elicit: () => ({ action: 'decline' }) });
    const result = await client.callTool({ name: 'deploy', arguments: { target: 'prod' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).not.toContain('deployed to');
  });

  it('refuses clearly when the client cannot elicit', async () => {
    const client = await serve(['--config', config]);
    const result = await client.callTool({ name: 'deploy', arguments: { target: 'prod' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/approval/i);
    expect(JSON.stringify(result.content)).not.toContain('deployed to');
  });
});

describe('tool names MCP clients accept', () => {
  it('maps a name with other characters, and routes the call back to the kernel’s name', async () => {
    const quiet: CliLogger = Object.assign(() => {}, { error() {}, warn() {}, info() {}, debug() {} });
    const kernel = new FakeKernel({ tools: [{ name: 'web.search', description: 'Search', inputSchema: { type: 'object' } }, { name: 'web_search', description: 'Other', inputSchema: { type: 'object' } }] });
    const server = createMcpServer(new ToolBridge(kernel, { trigger: 'user' }, quiet), { version: 't', logger: quiet });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(a);
    clients.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['web_search-2', 'web_search']);
    await client.callTool({ name: 'web_search-2', arguments: {} });
    expect(kernel.calls.map((c) => c.name)).toEqual(['web.search']);
  });
});

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const until = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function waitForTool(client: Client, name: string): Promise<void> {
  const until = Date.now() + 20_000;
  while (!(await client.listTools()).tools.some((t) => t.name === name)) {
    if (Date.now() > until) throw new Error(`tool ${name} never listed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
