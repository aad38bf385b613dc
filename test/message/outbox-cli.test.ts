import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, pincer } from '../cli/helpers/built-cli.js';
import { pluginModule, scratchDir, waitFor } from './helpers.js';

const scratch = scratchDir('pincer-outbox-cli-');
const outboxDir = path.join(scratch.dir, 'outbox');
const configFile = path.join(scratch.dir, 'pincer.config.json');

beforeAll(() => {
  writeFileSync(
    configFile,
    JSON.stringify({
      plugins: [{ id: 'channel-outbox', module: pluginModule('channel-outbox'), settings: { dir: outboxDir } }],
      tools: { profile: 'messaging' },
      agents: { list: [{ id: 'main', workspace: scratch.dir }] },
    }),
  );
});
afterAll(() => scratch.cleanup());

const send = (message: string) => pincer(['call', 'message', JSON.stringify({ action: 'send', to: 'ops', message }), '--config', configFile, '--channel', 'outbox'], { cwd: scratch.dir });

describe('pincer outbox tail', () => {
  it('shows what the message tool wrote, oldest first, with the sending session', async () => {
    for (const message of ['first', 'second', 'third']) expect((await send(message)).code).toBe(0);
    const tail = await pincer(['outbox', 'tail', '--config', configFile], { cwd: scratch.dir });
    expect(tail.code).toBe(0);
    const lines = tail.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^#1 \S+ outbox\/send → ops \[agent:main:main\] first$/);
    expect(lines[2]).toContain('third');
    const last = await pincer(['outbox', 'tail', '-n', '1', '--json', '--dir', outboxDir]);
    expect(JSON.parse(last.stdout)).toEqual([expect.objectContaining({ seq: 3, message: 'third', to: 'ops' })]);
  });

  it('follows new records as they are written', async () => {
    const child = spawn(process.execPath, [CLI, 'outbox', 'tail', '--follow', '-n', '1', '--dir', outboxDir], { env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      await waitFor(() => stdout.includes('third'), 15_000, 'the first tail');
      expect((await send('fourth')).code).toBe(0);
      await waitFor(() => stdout.includes('fourth'), 15_000, 'the followed record');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('says where it looked when there is no journal, and refuses a bad count', async () => {
    const missing = await pincer(['outbox', 'tail', '--dir', path.join(scratch.dir, 'nowhere')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no outbox journal in');
    const bad = await pincer(['outbox', 'tail', '-n', 'lots', '--dir', outboxDir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--lines needs a positive whole number');
  });
});
