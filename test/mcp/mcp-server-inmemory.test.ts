import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliLogger } from '../../cli/logger.js';
import { createMcpServer } from '../../cli/serve/mcp-server.js';
import { toObjectSchema } from '../../cli/serve/mcp-result.js';
import { ToolBridge } from '../../cli/serve/tool-bridge.js';
import { FAKE_TOOLS, FakeKernel } from '../cli/helpers/fake-kernel.js';

const quiet: CliLogger = Object.assign(() => {}, { error() {}, warn() {}, info() {}, debug() {} });
const open: Client[] = [];

async function connect(kernel: FakeKernel, agentId = 'main') {
  const bridge = new ToolBridge(kernel, { agentId, trigger: 'user' }, quiet);
  const server = createMcpServer(bridge, { version: 'test', logger: quiet });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  open.push(client);
  return { client, bridge };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('the MCP server over a fake kernel', () => {
  it('lists exactly the policy-filtered tools with their schemas', async () => {
    const { client } = await connect(new FakeKernel({ agentDeny: { main: ['exec'] } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['read', 'write']);
    expect(tools[0].inputSchema).toEqual(FAKE_TOOLS[0].inputSchema);
  });

  it('routes tools/call to toolSet.execute and maps json content to text', async () => {
    const kernel = new FakeKernel();
    const { client } = await connect(kernel);
    const result = await client.callTool({ name: 'read', arguments: { path: 'a.txt' } });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      { type: 'text', text: 'ran read' },
      { type: 'text', text: JSON.stringify({ params: { path: 'a.txt' } }, null, 2) },
    ]);
    expect(kernel.calls[0].toolCallId).toMatch(/^mcp-/);
  });

  it('answers a call of a denied tool with an isError result that explains the rule', async () => {
    const kernel = new FakeKernel({ agentDeny: { main: ['exec'] } });
    const { client } = await connect(kernel);
    const result = await client.callTool({ name: 'exec', arguments: { command: 'id' } });
    expect(result.isError).toBe(true);
    // The library's wording (the same in every door): the rule's key, never how to change it (9.1).
    expect((result.content as { text: string }[])[0].text).toContain('agents.main.tools.deny');
    expect((result.content as { text: string }[])[0].text).not.toContain('remove');
    expect(result._meta?.['pincer/outcome']).toMatchObject({ outcome: 'denied', code: 'TOOL_REMOVED', retryable: false });
    expect(kernel.calls).toHaveLength(0);
  });

  it('turns a thrown execute into an isError result naming the error code', async () => {
    const kernel = new FakeKernel({ execute: () => { throw Object.assign(new Error('plugin went away'), { code: 'PLUGIN_CRASHED' }); } });
    const { client } = await connect(kernel);
    const result = await client.callTool({ name: 'read', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toBe('read failed: PLUGIN_CRASHED: plugin went away');
  });

  it('sends tools/list_changed when the kernel reports a change, and lists the new set', async () => {
    const kernel = new FakeKernel();
    const { client } = await connect(kernel);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    kernel.tools = FAKE_TOOLS.slice(0, 1);
    kernel.emitToolsChanged();
    await changed;
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['read']);
  });

  it('does not announce a kernel change that leaves the listed tools as they were', async () => {
    const kernel = new FakeKernel();
    const { client } = await connect(kernel);
    let notices = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notices++);
    kernel.emitToolsChanged(); // e.g. a lazy plugin going starting → ready
    kernel.tools = FAKE_TOOLS.slice(1);
    kernel.emitToolsChanged();
    await client.listTools(); // a round trip, so any notification sent before it has arrived
    expect(notices).toBe(1);
  });

  it('answers tools/call without a name, or with arguments that are not an object, with -32602 naming the problem', async () => {
    const kernel = new FakeKernel();
    const { client } = await connect(kernel);
    const call = (params: unknown) => client.request({ method: 'tools/call', params } as never, CallToolResultSchema).then(() => undefined, (error: McpError) => error);
    const noName = await call({ arguments: {} });
    expect(noName).toMatchObject({ code: ErrorCode.InvalidParams });
    expect(noName?.message).toContain("tools/call needs params.name, the tool's name as a non-empty string; got nothing");
    expect(noName?.message).not.toContain('invalid_type');
    expect(await call({ name: 'read', arguments: ['a'] })).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('params.arguments of tools/call must be an object of named arguments; got an array') });
    expect(await call({ name: 7 })).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('got a number') });
    expect(kernel.calls).toHaveLength(0);
  });

  it('closes its tool bridge with the server, leaving no kernel subscription', async () => {
    const kernel = new FakeKernel();
    const { client } = await connect(kernel);
    expect(kernel.listenerCount).toBe(1);
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(kernel.listenerCount).toBe(0);
  });

  it('always hands clients an object schema', () => {
    expect(toObjectSchema({ properties: { a: { type: 'string' } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(toObjectSchema({})).toEqual({ type: 'object' });
    expect(toObjectSchema({ type: 'string' }).type).toBe('object');
  });
});
