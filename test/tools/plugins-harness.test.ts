import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsPlugin } from '../../plugins/fs/src/plugin.js';
import { createShellPlugin } from '../../plugins/shell/src/plugin.js';
import { createPluginTestHarness, type PluginTestHarness } from '../../sdk/testing/index.js';
import { tempWorkspace, textOf, type TempWorkspace } from './helpers.js';

let t: TempWorkspace;
let harness: PluginTestHarness | undefined;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await t.cleanup();
});

describe('fs and shell plugins through the SDK protocol harness', () => {
  it('answers the handshake with the fs tools and runs read, edit and ls over the protocol', async () => {
    harness = await createPluginTestHarness(fsPlugin, { workspace: t.workspace });
    expect(harness.handshake.contributes.tools.map((tool) => tool.name)).toEqual(['ls', 'read', 'write', 'edit', 'apply_patch']);
    await t.file('a.txt', 'hello world\n');
    expect(textOf(await harness.callTool('read', { path: 'a.txt' }))).toBe('hello world');
    await harness.callTool('edit', { path: 'a.txt', oldText: 'world', newText: 'pincer' });
    expect(await t.text('a.txt')).toBe('hello pincer\n');
    expect(textOf(await harness.callTool('ls', {}))).toContain('a.txt');
  });

  it('keeps the workspace error code across the wire', async () => {
    harness = await createPluginTestHarness(fsPlugin, { workspace: t.workspace });
    const result = await harness.callTool('read', { path: '../../etc/passwd' });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ error: { code: 'PATH_OUTSIDE_MOUNT' } });
  });

  it('rejects params that do not match the schema before the handler runs', async () => {
    harness = await createPluginTestHarness(fsPlugin, { workspace: t.workspace });
    const result = await harness.callTool('write', { path: 'new.txt' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error \[INVALID_PARAMS\]: Invalid arguments for write: content is required/);
    await expect(harness.callTool('read', { path: 'new.txt' }).then(textOf)).resolves.toMatch(/NOT_FOUND/);
  });

  it('runs exec and a background run over the protocol', async () => {
    harness = await createPluginTestHarness(createShellPlugin(), { workspace: t.workspace });
    expect(textOf(await harness.callTool('exec', { command: 'echo hi' }))).toMatch(/^hi\n\[exit code 0/);
    const started = await harness.callTool('exec', { command: 'echo bg', background: true }, { sessionKey: 's' });
    const sessionId = (started.details as { sessionId: string }).sessionId;
    const polled = await harness.callTool('process', { action: 'poll', sessionId, waitMs: 5000 }, { sessionKey: 's' });
    expect(polled.details).toMatchObject({ status: 'completed', exitCode: 0 });
  });
});
