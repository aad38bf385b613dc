import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FILES = 60;
const PAUSE_AT = 30;

/** 60 files of every shape the tools must keep: CRLF, mixed endings, a BOM, no final newline. */
function original(i: number): Buffer {
  const shapes = [`plain ${i}\nsecond\n`, `crlf ${i}\r\nsecond\r\n`, `mixed ${i}\r\nsecond\nthird\r\n`, `\uFEFFbom ${i}\nsecond\n`, `nofinal ${i}\nsecond`];
  return Buffer.from(shapes[i % shapes.length] as string);
}
const name = (i: number) => `f${String(i).padStart(2, '0')}.txt`;
const updated = (i: number) => Buffer.from(original(i).toString('utf8').replace('second', `SECOND ${i}`));
const sixtyFilePatch = ['*** Begin Patch', ...Array.from({ length: FILES }, (_, i) => [`*** Update File: ${name(i)}`, '@@', '-second', `+SECOND ${i}`]).flat(), '*** End Patch'].join('\n');

async function waitFor(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const text = (result: { content: { type: string; text?: string }[] }) => result.content.map((c) => c.text ?? '').join('');

describe('a multi-file patch interrupted by SIGKILL ends all-old, never a mix (issue 21 item 6)', () => {
  let kernel: Kernel | undefined;
  let scratch: string;
  const savedStateDir = process.env.PINCER_STATE_DIR;
  afterEach(async () => {
    await kernel?.stop();
    kernel = undefined;
    if (savedStateDir === undefined) delete process.env.PINCER_STATE_DIR;
    else process.env.PINCER_STATE_DIR = savedStateDir;
    rmSync(scratch, { recursive: true, force: true });
  });

  async function start(): Promise<{ workspace: string; journals: string; marker: string; tools: ReturnType<Kernel['assembleTools']>; config: PincerConfig }> {
    scratch = mkdtempSync(path.join(tmpdir(), 'pincer-fs-crash-'));
    const workspace = path.join(scratch, 'workspace');
    // The fs plugin's private data dir, where its journal lives: the host's layout (<state>/plugins/<id>), set
    // both ways so the test holds whether the host or the plugin's config env provides it.
    process.env.PINCER_STATE_DIR = path.join(scratch, 'state');
    const dataDir = path.join(scratch, 'state', 'plugins', 'fs');
    const marker = path.join(scratch, 'paused');
    mkdirSync(workspace);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    for (let i = 0; i < FILES; i += 1) writeFileSync(path.join(workspace, name(i)), original(i));
    const config: PincerConfig = {
        plugins: [
          { id: 'fs', module: path.join(ROOT, 'dist/plugins/fs/src/main.js'), env: { PINCER_PLUGIN_DATA_DIR: dataDir } },
          { id: 'sandbox-pausing', module: path.join(ROOT, 'dist/test/fixtures/fs-tools/pausing-backend.js'), env: { PAUSE_WRITE_SUFFIX: `/${name(PAUSE_AT)}`, PAUSE_MARKER: marker } },
        ],
        tools: { profile: 'coding' },
        // The fixture serves the bundled backend id "local": only an explicit setting may hand it to another plugin.
        backendPlugins: { local: 'sandbox-pausing' },
        agents: { list: [{ id: 'main', default: true, workspace, plugins: ['fs', 'sandbox-pausing'] }] },
    };
    kernel = createKernel(config, { cwd: scratchCwd(), logger: () => undefined });
    await kernel.start();
    return { workspace, journals: path.join(dataDir, 'patch-journal'), marker, tools: kernel.assembleTools(), config };
  }

  const bytesOf = (workspace: string) => Array.from({ length: FILES }, (_, i) => readFileSync(path.join(workspace, name(i))));
  const journalsIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).flatMap((s) => readdirSync(path.join(dir, s))) : []);

  it('SIGKILL of the fs plugin after 30 of 60 files: the next call of the session undoes the 30, byte for byte', async () => {
    const { workspace, journals, marker, tools } = await start();
    const patched = tools.execute('apply_patch', { input: sixtyFilePatch });
    await waitFor('the patch to reach file 30', () => existsSync(marker));

    // Mid-patch, as a crash would find it: 30 files new, 30 old, and the journal on disk.
    const mid = bytesOf(workspace);
    for (let i = 0; i < FILES; i += 1) expect(mid[i]).toEqual(i < PAUSE_AT ? updated(i) : original(i));
    expect(journalsIn(journals)).toHaveLength(1);

    const fsPid = kernel!.plugins().find((p) => p.id === 'fs')?.pid;
    expect(fsPid).toBeTypeOf('number');
    process.kill(fsPid as number, 'SIGKILL');
    expect((await patched).isError).toBe(true);

    // The next fs call of the session (on a restarted plugin process) settles the journal first.
    let next = await tools.execute('read', { path: name(0) });
    for (let tries = 0; next.isError === true && tries < 50; tries += 1) {
      await new Promise((r) => setTimeout(r, 200)); // the supervisor restarts the plugin after a backoff
      next = await tools.execute('read', { path: name(0) });
    }
    expect(text(next)).toMatch(/\[Before this call: 1 apply_patch call\(s\) interrupted by a crash were undone/);
    expect(text(next)).toContain(`plain 0\nsecond`);
    expect(kernel!.plugins().find((p) => p.id === 'fs')?.pid).not.toBe(fsPid);

    const after = bytesOf(workspace);
    for (let i = 0; i < FILES; i += 1) expect(after[i]).toEqual(original(i));
    expect(readdirSync(workspace).sort()).toEqual(Array.from({ length: FILES }, (_, i) => name(i)));
    expect(journalsIn(journals)).toEqual([]);
  });

  it('SIGKILL of the backend after 30 of 60 files: the journal is kept, and the next start undoes the 30, byte for byte', async () => {
    const { workspace, journals, marker, tools, config } = await start();
    const patched = tools.execute('apply_patch', { input: sixtyFilePatch });
    await waitFor('the patch to reach file 30', () => existsSync(marker));
    process.kill(kernel!.plugins().find((p) => p.id === 'sandbox-pausing')?.pid as number, 'SIGKILL');
    const result = await patched;
    expect(result.isError).toBe(true);
    // The undo cannot reach a crashed backend; the patch says so instead of claiming "no file changed".
    expect(text(result)).toMatch(/The undo could not finish yet \(.*\); it is retried before the next file operation/);
    expect(result.details).toMatchObject({ rolledBack: false });
    expect(journalsIn(journals)).toHaveLength(1);

    // The next start of the kernel (fresh plugin and backend processes, same data directory).
    await kernel!.stop();
    kernel = createKernel(config, { cwd: scratchCwd(), logger: () => undefined });
    await kernel.start();
    const next = await kernel.assembleTools().execute('read', { path: name(0) });
    expect(text(next)).toMatch(/\[Before this call: 1 apply_patch call\(s\) interrupted by a crash were undone/);

    const after = bytesOf(workspace);
    for (let i = 0; i < FILES; i += 1) expect(after[i]).toEqual(original(i));
    expect(readdirSync(workspace).sort()).toEqual(Array.from({ length: FILES }, (_, i) => name(i)));
    expect(journalsIn(journals)).toEqual([]);
  });
});
