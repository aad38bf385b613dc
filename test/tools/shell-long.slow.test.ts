import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, defaultConfig, type Kernel } from '../../kernel/index.js';

/**
 * Slow on purpose (about 95 s, in CI too): real commands measured in real seconds, on the
 * embedded default with its default deadlines (30 s of silence per call). A 45 s command in
 * the foreground and a 90 s background run, polled with 60 s waits, run side by side.
 */

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

describe('long commands on the embedded default', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = createKernel(defaultConfig({ cwd: mkdtempSync(path.join(tmpdir(), 'pincer-long-')) }), { logger: () => undefined });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
  });

  it('runs a 45 s foreground command and a 90 s background run to their ends, output intact', async () => {
    const tools = kernel.assembleTools();
    const started = await tools.execute('exec', { command: 'echo bg-start; sleep 90; echo bg-end', background: true });
    const sessionId = (started.details as { sessionId: string }).sessionId;
    const foreground = tools.execute('exec', { command: 'echo fg-start; sleep 45; echo fg-end', timeout: 100 });
    const background = (async () => {
      for (let i = 0; i < 3; i += 1) {
        const polled = await tools.execute('process', { action: 'poll', sessionId, waitMs: 60_000 });
        if ((polled.details as { status: string }).status !== 'running') return polled;
      }
      throw new Error('the background run did not end within three 60 s polls');
    })();
    const fg = await foreground;
    expect(fg.isError).toBeFalsy();
    expect(text(fg)).toMatch(/^fg-start\nfg-end\n\[exit code 0; [\d.]+ s\]$/); // fg-end: it ran its 45 s to the end
    const bg = await background;
    expect(bg.details).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(text(bg)).toMatch(/bg-start\nbg-end\n\[exit code 0; [\d.]+ s\]/);
  }, 170_000);
});
