/** The bridge against `@modelcontextprotocol/server-filesystem` from the npm registry, through a real kernel. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILESYSTEM, nodeServer, startBridgeKernel, text, type BridgeKernel } from './helpers/bridge-kernel.js';

describe('the MCP bridge with server-filesystem', () => {
  const root = mkdtempSync(join(tmpdir(), 'pincer-mcp-fs-'));
  let bk: BridgeKernel;
  beforeAll(async () => {
    writeFileSync(join(root, 'notes.txt'), 'first line\nsecond line\n');
    bk = await startBridgeKernel({ mcp: { servers: { files: nodeServer(FILESYSTEM, [root], { supportsParallelToolCalls: true }) } } });
  });
  afterAll(async () => {
    await bk?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves its tools with their hints and output schemas, in parallel as configured', async () => {
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'files__read_text_file'));
    const byName = Object.fromEntries(toolSet.tools.map((t) => [t.name, t]));
    expect(byName.files__read_text_file).toMatchObject({ executionMode: 'parallel', annotations: { readOnlyHint: true }, outputSchema: { type: 'object' } });
    expect(byName.files__write_file.annotations).toMatchObject({ destructiveHint: true });
  });

  it('reads, writes and lists through the server, with its structured content kept', async () => {
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'files__read_text_file'));
    const read = await toolSet.execute('files__read_text_file', { path: join(root, 'notes.txt') });
    expect(text(read)).toContain('second line');
    expect(read).toMatchObject({ outcome: 'ok', structuredContent: { content: expect.stringContaining('first line') } });
    const wrote = await toolSet.execute('files__write_file', { path: join(root, 'new.txt'), content: 'from the bridge' });
    expect(wrote.isError).toBeFalsy();
    expect(readFileSync(join(root, 'new.txt'), 'utf8')).toBe('from the bridge');
    const listed = await toolSet.execute('files__list_directory', { path: root });
    expect(text(listed)).toMatch(/\[FILE\] new\.txt/);
  });

  it('turns the server’s refusal of a path outside its roots into an error result', async () => {
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'files__read_text_file'));
    const outside = await toolSet.execute('files__read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/denied|outside|not allowed/i);
    expect(outside.details).toMatchObject({ mcpServer: 'files', status: 'error' });
  });
});
