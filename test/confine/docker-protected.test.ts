import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { plugin, removeDeployment, scratch, text, withKernel } from '../redteam/helpers.js';
import { HAS_DOCKER, TEST_IMAGE } from '../sandbox/services.js';

/**
 * The read-only mounts for protected paths in a read-write docker workspace must not make the
 * container's plan drift: the engine leaves an empty mount point where a missing protected path
 * was, and the next session (or kernel) must still get the same container, not SANDBOX_IN_USE.
 */
const DEPLOYMENT = `cdp${process.pid}`;
afterAll(() => removeDeployment(DEPLOYMENT));

describe.skipIf(!HAS_DOCKER)('docker protected mounts across sessions', () => {
  it('a second session and a second kernel reuse the container; .pincer stays uncreatable', async () => {
    const ws = scratch('docker-protected');
    mkdirSync(path.join(ws, '.git'));
    const cfg = {
      plugins: [...bundledPluginConfigs(), { id: 'sandbox-docker', module: plugin('sandbox-docker'), settings: { deploymentId: DEPLOYMENT, docker: { image: TEST_IMAGE } } }],
      agents: { list: [{ id: 'main', workspace: ws, sandbox: { mode: 'all', backend: 'docker', workspaceAccess: 'rw' } }] },
    } as PincerConfig;
    const configPath = path.join(ws, 'pincer.config.json');
    writeFileSync(configPath, JSON.stringify(cfg));
    const attempt = 'touch .pincer/planted 2>/dev/null || echo refused; echo session-ok';
    for (const round of [1, 2]) {
      await withKernel(cfg, { configPath, cwd: scratch('docker-protected-cwd') }, async (kernel) => {
        for (const sessionKey of [`a${round}`, `b${round}`]) {
          const output = text(await kernel.assembleTools({ agentId: 'main', sessionKey }).execute('exec', { command: attempt }));
          expect(output, `round ${round}, session ${sessionKey}`).toContain('session-ok');
          expect(output).toContain('refused');
        }
      });
    }
    expect(existsSync(path.join(ws, '.pincer', 'planted'))).toBe(false);
  }, 240_000);
});
