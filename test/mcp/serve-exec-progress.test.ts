/**
 * A long `exec` reports its output while it runs: to an MCP client that sent a progress token, as
 * `notifications/progress` whose message is the new output, and to `pincer call` on a terminal,
 * as a live view above its status line, before the command ends.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, tempWorkspace } from '../cli/helpers/built-cli.js';

beforeAll(() => ensureBuilt());
const ws = tempWorkspace();
afterAll(() => ws.cleanup());

const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', PINCER_STATE_DIR: join(ws.dir, '.state') };

describe('exec progress through pincer serve', () => {
  it('sends an MCP client that passed a progress token the output so far, before the result', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve'], cwd: ws.dir, env, stderr: 'pipe' });
    const client = new Client({ name: 'exec-progress-test', version: '1' });
    await client.connect(transport);
    try {
      const seen: { message?: string; at: number }[] = [];
      const result = await client.callTool(
        { name: 'exec', arguments: { command: 'echo first; sleep 2; echo second' } },
        undefined,
        { onprogress: (p) => void seen.push({ message: p.message, at: Date.now() }) },
      );
      const ended = Date.now();
      const first = seen.find((p) => p.message?.includes('first'));
      expect(first, JSON.stringify(seen)).toBeDefined();
      expect(first!.at).toBeLessThan(ended - 1_000); // while the command was still sleeping
      // The result is what it always was: every line once, in order.
      const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('');
      expect(text).toMatch(/^first\nsecond\n\[exit code 0; /);
      const output = seen.filter((p) => !p.message?.startsWith('still running')).map((p) => p.message).join('');
      expect(text.startsWith(output)).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('exec progress in pincer call', () => {
  it('shows the output on a terminal while the command runs, control characters escaped', async () => {
    const params = JSON.stringify({ command: "printf 'first \\033[2J\\n'; sleep 2; echo second" });
    const command = [process.execPath, CLI, 'call', 'exec', params].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ws.dir, env: { ...env, TERM: 'dumb' } });
    let output = '';
    let firstAt: number | undefined;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // The live view escapes what the command printed: `\x1b[2J` would clear the operator's screen.
      if (firstAt === undefined && output.includes('first \\x1b[2J')) firstAt = Date.now();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const ended = Date.now();
    expect(code, output).toBe(0);
    expect(firstAt, output).toBeDefined();
    expect(firstAt!).toBeLessThan(ended - 1_000);
    expect(output).toContain('second');
  }, 60_000);
});
