import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, ensureBuilt, pincer, writeConfig } from '../cli/helpers/built-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

beforeAll(ensureBuilt);

const temp = (prefix: string) => tempDir(`pincer-${prefix}-`);

/**
 * A workspace whose config loads the new plugin as `plugin new` printed it, with its tools
 * allowed, and refuses plugins that declare no confinement, as a config from `pincer init` does:
 * a call that succeeds ran the plugin under the sandbox its template declares.
 */
async function callThroughKernel(entry: Record<string, unknown>, id: string, tool: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const workspace = temp('plugin-ws');
  writeFileSync(join(workspace, 'notes.txt'), 'a\nb\n');
  const file = await writeConfig(workspace, (c) => {
    c.plugins.push(entry);
    c.tools = { profile: 'coding', alsoAllow: [id] };
    c.confinement = { requireDeclaration: true };
  });
  return pincer(['call', tool, '{"path":"notes.txt"}', '--config', file], { cwd: workspace, timeoutMs: 60_000 });
}

describe('pincer plugin new', () => {
  it('writes a Python plugin whose own tests pass, and which the kernel runs from the printed entry', async () => {
    const parent = temp('plugin-py');
    const made = await pincer(['plugin', 'new', 'acme-py', '--lang', 'python', '--json'], { cwd: parent });
    expect(made.code, made.stderr).toBe(0);
    const result = JSON.parse(made.stdout);
    expect(result).toMatchObject({ ok: true, dir: join(parent, 'acme-py'), tool: 'acme_py_count_lines', files: ['README.md', 'pincer-plugin.json', 'plugin.py', 'test_plugin.py'] });
    execFileSync('python3', ['-m', 'unittest'], { cwd: result.dir, stdio: 'pipe' });

    const call = await callThroughKernel(result.configEntry, 'acme-py', 'acme_py_count_lines');
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('notes.txt: 2 lines');
  }, 90_000);

  it('writes a TypeScript plugin that builds, passes its test, and runs lazily from the printed entry', async () => {
    const parent = temp('plugin-ts');
    const made = await pincer(['plugin', 'new', 'acme', '--json'], { cwd: parent });
    expect(made.code, made.stderr).toBe(0);
    const result = JSON.parse(made.stdout);
    expect(result.configEntry).toEqual({ id: 'acme', module: join(parent, 'acme/dist/src/main.js'), lazy: true });
    // What `npm install` would link, taken from this checkout (the packed-install test runs npm itself).
    mkdirSync(join(result.dir, 'node_modules/@types'), { recursive: true });
    symlinkSync(REPO, join(result.dir, 'node_modules/pincer'));
    for (const dep of ['zod', 'typescript', 'vitest', '@types/node']) symlinkSync(join(REPO, 'node_modules', dep), join(result.dir, 'node_modules', dep));
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { cwd: result.dir, stdio: 'pipe' });
    execFileSync(process.execPath, ['dist/src/write-manifest.js'], { cwd: result.dir, stdio: 'pipe' });
    execFileSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], { cwd: result.dir, stdio: 'pipe' });
    expect(readdirSync(join(result.dir, 'dist/src'))).toContain('pincer-plugin.json');

    const call = await callThroughKernel(result.configEntry, 'acme', 'acme_count_lines');
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('notes.txt: 2 lines');
  }, 120_000);

  it('never writes into a folder that has files, and refuses a name that is not a plugin id', async () => {
    const parent = temp('plugin-taken');
    mkdirSync(join(parent, 'taken'));
    writeFileSync(join(parent, 'taken/keep.txt'), 'mine');
    const taken = await pincer(['plugin', 'new', 'taken'], { cwd: parent });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already exists and is not an empty folder');
    expect(readdirSync(join(parent, 'taken'))).toEqual(['keep.txt']);

    const bad = await pincer(['plugin', 'new', '../escape'], { cwd: parent });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'../escape' is not a plugin id");
    const lang = await pincer(['plugin', 'new', 'x', '--lang', 'rust'], { cwd: parent });
    expect(lang.code).toBe(2);
    expect(readdirSync(parent)).toEqual(['taken']);
  });
});
