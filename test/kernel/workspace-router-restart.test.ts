import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, defaultConfig, type Kernel } from '../../kernel/index.js';

// The router prepares a session once per backend process: after the backend plugin crashes
// and the host restarts it, the next call prepares the session again in the new process.
function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a session whose backend plugin restarted', () => {
  let kernel: Kernel;
  let workspace: string;
  beforeAll(async () => {
    workspace = mkdtempSync(path.join(tmpdir(), 'pincer-router-restart-'));
    writeFileSync(path.join(workspace, 'a.txt'), 'before the crash');
    kernel = createKernel(defaultConfig({ cwd: workspace }), { logger: () => undefined });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('is prepared again in the new backend process instead of failing every later call', async () => {
    const tools = kernel.assembleTools();
    expect(text(await tools.execute('read', { path: 'a.txt' }))).toContain('before the crash');
    const backend = kernel.plugins().find((p) => p.id === 'sandbox-local');
    const pid = backend?.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid!, 'SIGKILL');
    await until(() => {
      const now = kernel.plugins().find((p) => p.id === 'sandbox-local');
      return now?.state === 'ready' && now.pid !== pid;
    }, 'the backend plugin to restart');
    writeFileSync(path.join(workspace, 'a.txt'), 'after the restart');
    const again = await kernel.assembleTools().execute('read', { path: 'a.txt' });
    expect(again.isError).toBeFalsy();
    expect(text(again)).toContain('after the restart');
  });
});
