import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripJsonComments } from '../../kernel/config/jsonc.js';
import { loadConfigFile } from '../../kernel/config/validate.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('comments in a config file', () => {
  it('loads a config with line and block comments, keeping comment-like text inside strings', async () => {
    const dir = tempDir('pincer-jsonc-');
    const file = join(dir, 'pincer.config.json');
    writeFileSync(file, `{
  // the profile
  "tools": { "profile": "coding", /* inline */ "deny": ["a//b", "c/*d*/", "e\\"//f"] }
  /* a block
     over lines */
}`);
    const config = await loadConfigFile(file);
    expect(config.tools).toEqual({ profile: 'coding', deny: ['a//b', 'c/*d*/', 'e"//f'] });
  });

  it('keeps positions, so a JSON error still points at the line written', () => {
    const text = '{\n  // note\n  "a": 1,\n}';
    const stripped = stripJsonComments(text);
    expect(stripped.length).toBe(text.length);
    expect(stripped.split('\n')).toHaveLength(4);
    expect(() => JSON.parse(stripped)).toThrow(SyntaxError);
  });

  it('refuses an unterminated block comment with a config error naming the file', async () => {
    const dir = tempDir('pincer-jsonc-');
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ /* never closed \n "tools": {} }');
    await expect(loadConfigFile(file)).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('Unterminated /* comment') });
  });
});
