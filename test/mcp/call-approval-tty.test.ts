/**
 * `pincer call` asks approvals on the terminal: run under a real pseudo-terminal (`script`), the
 * operator's typed answer decides; with stdin not a terminal, the call is refused, not left waiting.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, pincer, tempWorkspace, writeConfig } from '../cli/helpers/built-cli.js';
import { join } from 'node:path';

beforeAll(() => ensureBuilt());
const ws = tempWorkspace();
afterAll(() => ws.cleanup());
let config: string;
beforeAll(async () => {
  config = await writeConfig(ws.dir, (c) => {
    c.plugins.push({ id: 'asks-approval', module: join(CLI, '../../test/fixtures/plugins/asks-approval.js') });
    c.tools = { ...c.tools, alsoAllow: ['deploy'] };
  });
});

/** Runs `pincer call` inside `script` (a pty), typing `answer` once the question shows. */
function callInTerminal(answer: string, target = 'prod'): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, CLI, 'call', 'deploy', JSON.stringify({ target }), '--config', config].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ws.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TERM: 'dumb' } });
  let output = '';
  let answered = false;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (!answered && output.includes('Allow this call?')) {
      answered = true;
      child.stdin.write(`${answer}\r`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('pincer call on a terminal', () => {
  it('shows the approval request and runs the call the operator allowed', async () => {
    const run = await callInTerminal('o');
    expect(run.output).toContain('Deploy to prod?');
    expect(run.output).toMatch(/bound to sha256:[0-9a-f]{64}/);
    expect(run.output).toContain('deployed to prod');
    expect(run.code).toBe(0);
  });

  it('shows control sequences a model put in the arguments as escapes, so they cannot redraw the question', async () => {
    // The hook quotes `target` in its description; the model chose it to erase the line and claim "staging".
    const run = await callInTerminal('d', 'prod\u001b[2K\rDeploy to staging\u009b2J');
    expect(run.output).toContain('Deploy to prod\\x1b[2K\\rDeploy to staging\\x9b2J?');
    // The spinner draws with escapes of its own; the question itself carries none.
    const question = run.output.slice(run.output.indexOf('Approval needed'), run.output.indexOf('Allow this call?'));
    expect(question).toContain('Tool: deploy');
    expect(question).not.toMatch(/[\u001b\u009b]/);
    expect(run.code).toBe(1);
  });

  it('does not run a call the operator denied', async () => {
    const run = await callInTerminal('d');
    expect(run.output).not.toContain('deployed to prod');
    expect(run.code).toBe(1);
  });

  it('refuses without waiting when stdin is not a terminal', async () => {
    const run = await pincer(['call', 'deploy', '{"target":"prod"}', '--config', config], { cwd: ws.dir, input: '' });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/approval/i);
    expect(run.stdout).not.toContain('deployed to prod');
  });
});
