/**
 * `--script FILE` registers the scripted turn runner for the CLI (14.1), so the sessions tools
 * run agent turns from `pincer serve` with no model: the built bin, an MCP client over stdio,
 * the real sessions and tasks plugins.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO, ensureBuilt, pincer, tempWorkspace, writeConfig } from './helpers/built-cli.js';

const ws = tempWorkspace();
let config: string;
let script: string;

beforeAll(async () => {
  ensureBuilt();
  config = await writeConfig(ws.dir, (c) => {
    for (const id of ['sessions', 'tasks']) c.plugins.push({ id, module: join(REPO, 'dist/plugins', id, 'src/main.js') });
  });
  script = join(ws.dir, 'turn.json');
  writeFileSync(script, JSON.stringify([{ tool: 'read', params: { path: 'hello.txt' } }]));
});
afterAll(() => ws.cleanup());

const text = (result: unknown) => ((result as { content: { text?: string }[] }).content.map((block) => block.text ?? '').join(''));

describe('pincer serve --script', () => {
  it("runs a spawned subagent's turn: the file's steps, or the steps its task carries", async () => {
    const client = new Client({ name: 'script-turns', version: '1' });
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', PINCER_STATE_DIR: join(ws.dir, '.state') };
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', config, '--script', script], cwd: ws.dir, env, stderr: 'pipe' }));
    try {
      const own = JSON.stringify({ steps: [{ tool: 'ls', params: {} }] });
      for (const task of ['summarize hello.txt', own]) {
        const spawned = await client.callTool({ name: 'sessions_spawn', arguments: { task } });
        expect(spawned.isError, text(spawned)).not.toBe(true);
      }
      const waited = text(await client.callTool({ name: 'sessions_yield', arguments: { timeoutSeconds: 60 } }));
      expect(waited).toContain('read: ok hello from pincer'); // the file's steps
      expect(waited).toMatch(/ls: ok [\s\S]*hello\.txt/); // the task's own
    } finally {
      await client.close();
    }
  });

  it('refuses a script file that is not a list of steps, before starting anything', async () => {
    writeFileSync(join(ws.dir, 'bad.json'), JSON.stringify({ steps: [{ params: {} }] }));
    const run = await pincer(['call', 'sessions_send', '{}', '--script', 'bad.json', '--config', config], { cwd: ws.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--script bad.json: expected a list of {"tool": NAME, "params": {...}} steps');
  });
});
