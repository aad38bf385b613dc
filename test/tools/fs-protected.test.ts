import { afterEach, describe, expect, it } from 'vitest';
import { fsPlugin } from '../../plugins/fs/src/plugin.js';
import { createPluginTestHarness, type PluginTestHarness } from '../../sdk/testing/index.js';
import { memoryFixture, type FsFixture } from './fs-fixtures.js';

const PROTECTED = ['pincer.config.json', '.pincer', '.git'];
const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');
const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? '').join('');

/** What a refusal must never say to the model: how to lift the fence. */
function expectNoCoaching(message: string): void {
  expect(message).not.toMatch(/protectedPaths|tools\.fs|tools\.deny|--config|explain|to (change|lift|remove|disable|unprotect)|edit (the|your) (config|policy)|allow/i);
}

describe('protected paths, as the fs tools present them (issue 9 item 1, tool side)', () => {
  let f: FsFixture & { memory: unknown };
  let h: PluginTestHarness;
  afterEach(async () => {
    await h?.close();
  });

  async function start(): Promise<void> {
    const files = { 'pincer.config.json': '{"tools":{"deny":["exec"]}}\n', '.git/config': '[core]\n', '.pincer/state.json': '{}\n', 'a.txt': 'a\n' };
    f = memoryFixture({ protectedPaths: PROTECTED, files });
    await f.symlink('.git/config', 'innocent.txt');
    h = await createPluginTestHarness(fsPlugin, { workspace: f.workspace });
  }

  it.each([
    ['write over the loaded config', 'write', { path: 'pincer.config.json', content: '{}' }],
    ['write a new file under .pincer', 'write', { path: '.pincer/new.json', content: '{}' }],
    ['edit under .git', 'edit', { path: '.git/config', oldText: '[core]', newText: '[core]\n\thooksPath = /tmp/evil' }],
    ['edit through a symlink into .git', 'edit', { path: 'innocent.txt', oldText: '[core]', newText: '[x]' }],
    ['patch the config', 'apply_patch', { input: patch('*** Update File: pincer.config.json', '-{"tools":{"deny":["exec"]}}', '+{}') }],
    ['patch-delete a file under .git', 'apply_patch', { input: patch('*** Delete File: .git/config') }],
    ['patch-move a file into .pincer', 'apply_patch', { input: patch('*** Update File: a.txt', '*** Move to: .pincer/a.txt', '-a', '+b') }],
  ])('refuses to %s with PROTECTED_PATH, a hint that does not coach, and no change', async (_what, toolName, args) => {
    await start();
    const before = await f.list();
    const result = await h.callTool(toolName, args);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ error: { code: 'PROTECTED_PATH' } });
    expect(text(result)).toMatch(/Hint: This path is protected and cannot be changed by tools\. Leave it as it is and continue with other files\./);
    expectNoCoaching(text(result));
    expect(await f.list()).toEqual(before);
    expect(await f.bytes('pincer.config.json')).toEqual(Buffer.from('{"tools":{"deny":["exec"]}}\n'));
    expect(await f.bytes('.git/config')).toEqual(Buffer.from('[core]\n'));
    expect(await f.bytes('a.txt')).toEqual(Buffer.from('a\n'));
  });

  it('refuses a patch that touches a protected file after an allowed one, undoing the allowed one', async () => {
    await start();
    const result = await h.callTool('apply_patch', { input: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: .pincer/state.json', '-{}', '+{"x":1}') });
    expect(result.details).toMatchObject({ error: { code: 'PROTECTED_PATH' }, rolledBack: true });
    expectNoCoaching(text(result));
    expect(await f.bytes('a.txt')).toEqual(Buffer.from('a\n'));
    expect(await f.bytes('.pincer/state.json')).toEqual(Buffer.from('{}\n'));
  });

  it('still reads protected files: the fence is on changes', async () => {
    await start();
    expect(text(await h.callTool('read', { path: 'pincer.config.json' }))).toBe('{"tools":{"deny":["exec"]}}');
  });
});
