import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, ensureBuilt, pincer, writeConfig } from '../cli/helpers/built-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const ECHO = join(REPO, 'dist/test/fixtures/plugins/echo.js');

beforeAll(ensureBuilt);

async function configWith(tools: Record<string, unknown>): Promise<{ dir: string; file: string }> {
  const dir = tempDir('pincer-explain-');
  const file = await writeConfig(dir, (config) => {
    config.plugins.push({ id: 'echo', module: ECHO });
    config.tools = tools;
  });
  return { dir, file };
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('explain and warnings through the CLI', () => {
  it('says to add a plugin tool the profile removes to alsoAllow, and that entry brings it back', async () => {
    const removed = await configWith({ profile: 'coding' });
    const before = await pincer(['explain', 'echo', '--config', removed.file], { cwd: removed.dir });
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain('echo is not available to agent main: removed by the profile layer.');
    expect(before.stdout).toContain(`To change it: add "echo" (or its plugin's id, for all of that plugin's tools) to tools.alsoAllow; tools.profile names a fixed list, which alsoAllow extends.`);

    const allowed = await configWith({ profile: 'coding', alsoAllow: ['echo'] });
    const after = await pincer(['explain', 'echo', '--config', allowed.file], { cwd: allowed.dir });
    expect(after.stdout).toContain('echo is available to agent main (plugin echo).');
  });

  it('prints each policy warning once per command, naming the key it came from', async () => {
    const { dir, file } = await configWith({ profile: 'coding', alsoAllow: ['word_count'], deny: ['exce'] });
    const alsoAllow = 'tools.alsoAllow (layers profile, global) names tools that match nothing here (word_count)';
    const deny = 'tools.deny (layer global) names entries that match no known tool, group or plugin (exce)';
    for (const args of [['tools'], ['tools', '--json'], ['explain', 'read'], ['call', 'read', '{"path":"pincer.config.json","limit":1}']]) {
      const run = await pincer([...args, '--config', file], { cwd: dir });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      const all = run.stdout + run.stderr;
      expect(count(all, alsoAllow), `${args.join(' ')}: ${all}`).toBe(1);
      expect(count(all, deny), `${args.join(' ')}: ${all}`).toBe(1);
    }
  });

  it('has config check name each entry that does nothing by its exact path', async () => {
    // Only the bundled plugins, whose manifests list every tool they serve: any unknown name is dead.
    const dir = tempDir('pincer-explain-');
    const file = await writeConfig(dir, (config) => (config.tools = { profile: 'coding', alsoAllow: ['word_count'], deny: ['exce'] }));
    const run = await pincer(['config', 'check', file], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('! 2 policy entries do nothing:');
    expect(run.stdout).toMatch(/tools\.alsoAllow\[0\]\s+"word_count" matches no known tool, group or plugin, so it allows nothing\./);
    expect(run.stdout).toMatch(/tools\.deny\[0\]\s+"exce" matches no known tool, group or plugin, so it denies nothing; did you mean "exec"\?/);
  });

  it('answers an unknown flag with a did-you-mean', async () => {
    const run = await pincer(['explain', 'read', '--agnet', 'main']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown flag '--agnet' for 'pincer explain' (did you mean '--agent'?)");
  });
});
