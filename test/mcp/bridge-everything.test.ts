/**
 * The MCP bridge against the reference server from the npm registry
 * (`@modelcontextprotocol/server-everything`), through a real kernel: names, policy, content
 * passed through, utility tools, the server's environment, progress and deadlines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, nodeServer, startBridgeKernel, text, type BridgeKernel } from './helpers/bridge-kernel.js';

const has = (name: string) => (t: { tools: readonly { name: string }[] }) => t.tools.some((tool) => tool.name === name);

describe('the MCP bridge with server-everything over stdio', () => {
  let bk: BridgeKernel;
  beforeAll(async () => {
    process.env.PINCER_TEST_SECRET = 'do-not-leak';
    process.env.PINCER_TEST_PASSED = 'passed-on-purpose';
    bk = await startBridgeKernel({
      mcp: { servers: { everything: nodeServer(EVERYTHING, ['stdio'], { passEnv: ['PINCER_TEST_PASSED'], timeoutMs: 1_500, maxTotalTimeoutMs: 20_000 }) } },
    });
  });
  afterAll(async () => {
    await bk?.stop();
    delete process.env.PINCER_TEST_SECRET;
    delete process.env.PINCER_TEST_PASSED;
  });

  it('contributes <server>__<tool> tools, sorted, with utility tools for resources and prompts, under plugin id bundle-mcp', async () => {
    const toolSet = await bk.tools(has('everything__echo'));
    const names = toolSet.tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'everything__resources_list', 'everything__resources_read', 'everything__prompts_list', 'everything__prompts_get']));
    // A task-only tool cannot be called through tools/call: left out, with a warning.
    expect(names).not.toContain('everything__simulate-research-query');
    expect(bk.logs.some((l) => l.message.includes('"simulate-research-query"') && l.message.includes('task'))).toBe(true);
    const echo = toolSet.tools.find((t) => t.name === 'everything__echo')!;
    expect(echo.executionMode).toBe('sequential');
    expect((toolSet.tools as any[]).find((t) => t.name === 'everything__echo').annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(toolSet.explain('everything__echo')).toMatchObject({ present: true });
  });

  it('passes the text through after a notice that it is untrusted, naming server and tool in details', async () => {
    const toolSet = await bk.tools(has('everything__echo'));
    const result = await toolSet.execute('everything__echo', { message: 'hello bridge' });
    expect(result.isError).toBeFalsy();
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('untrusted') });
    expect(result.content[1]).toEqual({ type: 'text', text: 'Echo: hello bridge' });
    expect(result.details).toMatchObject({ mcpServer: 'everything', mcpTool: 'echo', untrustedMcpOutput: true });
  });

  it('passes images, embedded resources and structured content through unchanged', async () => {
    const toolSet = await bk.tools(has('everything__get-tiny-image'));
    const image = await toolSet.execute('everything__get-tiny-image', {});
    expect(image.content.some((c) => c.type === 'image' && (c as { mimeType: string }).mimeType === 'image/png')).toBe(true);
    const reference = await toolSet.execute('everything__get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    expect(reference.content.some((c) => c.type === 'resource')).toBe(true);
    const structured = await toolSet.execute('everything__get-structured-content', { location: 'New York' });
    expect(structured).toMatchObject({ outcome: 'ok', structuredContent: { temperature: expect.any(Number) } });
  });

  it('reads resources and prompts through the utility tools', async () => {
    const toolSet = await bk.tools(has('everything__resources_read'));
    const listed = JSON.parse(text(await toolSet.execute('everything__resources_list', {})).split('\n').slice(1).join('\n'));
    expect(listed.resources.length).toBeGreaterThan(0);
    const uri = listed.resources[0].uri as string;
    const read = await toolSet.execute('everything__resources_read', { uri });
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain(uri);
    const prompts = await toolSet.execute('everything__prompts_list', {});
    expect(text(prompts)).toContain('simple-prompt');
    const prompt = await toolSet.execute('everything__prompts_get', { name: 'simple-prompt' });
    expect(text(prompt)).toContain('messages');
    expect(prompt.details).toMatchObject({ untrustedMcpOutput: true });
  });

  it('starts the server with an allow-listed environment: passEnv names reach it, other variables do not', async () => {
    const toolSet = await bk.tools(has('everything__get-env'));
    const env = text(await toolSet.execute('everything__get-env', {}));
    expect(env).toContain('passed-on-purpose');
    expect(env).not.toContain('do-not-leak');
    expect(env).not.toContain('PINCER_PLUGIN_COOKIE');
  });

  it('keeps a call alive past its idle deadline while the server reports progress, and forwards the progress', async () => {
    const toolSet = await bk.tools(has('everything__trigger-long-running-operation'));
    const progress: unknown[] = [];
    // 4 s in 8 steps: each half-second report restarts the 1.5 s idle deadline.
    const result = await toolSet.execute('everything__trigger-long-running-operation', { duration: 4, steps: 8 }, { onProgress: (p) => progress.push(p) });
    expect(text(result)).toContain('Long running operation completed');
    expect(progress.length).toBeGreaterThanOrEqual(4);
  });

  it('ends a silent call at its idle deadline with an error result that names the deadline', async () => {
    const toolSet = await bk.tools(has('everything__trigger-long-running-operation'));
    // One step of 3 s: no progress for longer than the 1.5 s idle deadline.
    const result = await toolSet.execute('everything__trigger-long-running-operation', { duration: 3, steps: 1 });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/did not answer within 1500 ms/);
    expect(result.details).toMatchObject({ mcpServer: 'everything', retryable: true });
  });

  it('reports the server as ready, with its pid and tool count, in the plugin status', async () => {
    await bk.tools(has('everything__echo'));
    const [server] = bk.servers();
    expect(server).toMatchObject({ name: 'everything', state: 'ready', detail: expect.stringMatching(/^pid \d+, \d+ tools$/) });
  });
});
