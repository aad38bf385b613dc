import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../plugins/sandbox-local/src/backend.js';
import { TempJournal, openDirectoryChain, replaceFileAt } from '../../sdk/fs-bridge/index.js';
import type { HandlerContext } from '../../sdk/plugin-api.js';

const BRIDGE = pathToFileURL(path.resolve(import.meta.dirname, '../../dist/sdk/fs-bridge/index.js')).href;
const ctx = (): HandlerContext => ({ signal: new AbortController().signal, settings: {}, log: {} as HandlerContext['log'] });

// A writer that stops right before its rename, with its temp file on disk, until it is killed.
const WRITER = `
const { openDirectoryChain, replaceFileAt, TempJournal } = await import(${JSON.stringify(BRIDGE)});
const [root, journalDir] = process.argv.slice(1);
const dir = openDirectoryChain(root, [], { input: 'victim.txt' });
await replaceFileAt(dir, 'victim.txt', Buffer.from('half-way new content'), {
  journal: { journal: new TempJournal(journalDir), hostRoot: root, segments: [] },
  beforeRename: () => { process.stdout.write('temp-ready\\n'); return new Promise(() => {}); },
});
`;

let root: string;
let ws: string;
let journalDir: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-killed-')));
  ws = path.join(root, 'ws');
  journalDir = path.join(root, 'journal');
  await fs.mkdir(ws);
  await fs.writeFile(path.join(ws, 'victim.txt'), 'old content');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const temps = async () => (await fs.readdir(ws)).filter((n) => n.startsWith('.pincer-tmp-'));

describe('a local backend killed mid-write', () => {
  it('leaves the old file whole, and its temp file is removed when a backend starts on the same data directory', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER, ws, journalDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => { if (chunk.toString().includes('temp-ready')) resolve(); });
      child.once('exit', (code) => reject(new Error(`writer exited early (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await temps()).toHaveLength(1); // what the kill left behind
    expect(await fs.readFile(path.join(ws, 'victim.txt'), 'utf8')).toBe('old content');

    const backend = createLocalBackend({ tempJournal: new TempJournal(journalDir) });
    await backend.prepare({ session: 's', backendId: 'local', workspaceDir: ws }, ctx());
    expect(await temps()).toEqual([]);
    expect(await fs.readdir(journalDir)).toEqual([]);
    expect(await fs.readFile(path.join(ws, 'victim.txt'), 'utf8')).toBe('old content');
  });

  it('never removes the temp file of a write still running in a live process', async () => {
    const journal = new TempJournal(journalDir);
    const backend = createLocalBackend({ tempJournal: journal });
    await backend.prepare({ session: 's', backendId: 'local', workspaceDir: ws }, ctx());
    const dir = openDirectoryChain(ws, [], { input: 'victim.txt' });
    try {
      await replaceFileAt(dir, 'victim.txt', Buffer.from('new content'), {
        journal: { journal, hostRoot: ws, segments: [] },
        // Another session is prepared while this write is in flight.
        beforeRename: async () => { await backend.prepare({ session: 't', backendId: 'local', workspaceDir: ws }, ctx()); },
      });
    } finally {
      dir.close();
    }
    expect(await fs.readFile(path.join(ws, 'victim.txt'), 'utf8')).toBe('new content');
    expect(await temps()).toEqual([]);
  });
});
