import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rebaseConfigPaths } from '../../kernel/config/load.js';
import { tempDir } from '../helpers/temp-dir.js';

const folder = () => tempDir('pincer-cmd-cwd-');
const cwdOf = (base: string, command: string[]) => rebaseConfigPaths({ plugins: [{ id: 'p', command }] }, base).plugins![0]!.cwd;

describe("a command plugin's working directory", () => {
  it("is the config's folder when its argv names a path relative to it", () => {
    const base = folder();
    writeFileSync(join(base, 'plugin.py'), '');
    expect(cwdOf(base, ['python3', 'plugin.py'])).toBe(base);
    expect(cwdOf(base, ['./plugin.py'])).toBe(base);
  });

  it('is left to the host (the data directory) when its argv holds only absolute paths and program names', () => {
    const base = folder();
    expect(cwdOf(base, ['python3', '/opt/plugins/audit.py'])).toBeUndefined();
  });

  it('does not move into the folder because a file there shares the program\'s name (PATH finds programs, not the cwd)', () => {
    const base = folder();
    writeFileSync(join(base, 'python3'), '#!/bin/sh\n');
    expect(cwdOf(base, ['python3', '/opt/plugins/audit.py'])).toBeUndefined();
  });
});
