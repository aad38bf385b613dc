import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import type { PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { runDockerSelfTest } from '../../plugins/sandbox-docker/src/self-test.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { plugin, scratch, text, withKernel } from '../redteam/helpers.js';
import { removeDeployment, testDeployment } from './deployment.js';
import { HAS_DOCKER, TEST_IMAGE } from './services.js';

/**
 * The docker backend's `runtime` setting with gVisor (`runsc`), on the real engine (CI registers
 * runsc: scripts/services/install-sandbox-tools.sh). `sandbox check` verifies the runtime.
 */
const DEPLOYMENT = testDeployment('g');
const docker = new Docker();
afterAll(() => removeDeployment(DEPLOYMENT));

describe.skipIf(!HAS_DOCKER)('docker runtime: gVisor', () => {
  it('sandbox check passes with runsc and reports the gVisor kernel; an unregistered runtime is named', async () => {
    const config = (runtime: string) => resolveSandboxConfig({ deploymentId: DEPLOYMENT, docker: { image: TEST_IMAGE, runtime } });
    const report = await runDockerSelfTest(docker, config('runsc'));
    expect(report.checks.find((c) => c.name === 'runtime')?.detail).toContain('gVisor kernel inside');
    await expect(runDockerSelfTest(docker, config('no-such-runtime'))).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('"no-such-runtime" is not registered') });
  }, 180_000);

  it('exec runs on the gVisor kernel, and protected paths hold there too', async () => {
    const ws = scratch('gvisor');
    mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
    const cfg = {
      plugins: [...bundledPluginConfigs(), { id: 'sandbox-docker', module: plugin('sandbox-docker'), settings: { deploymentId: DEPLOYMENT, docker: { image: TEST_IMAGE, runtime: 'runsc' } } }],
      agents: { list: [{ id: 'main', workspace: ws, sandbox: { mode: 'all', backend: 'docker', workspaceAccess: 'rw' } }] },
    } as PincerConfig;
    const configPath = path.join(ws, 'pincer.config.json');
    writeFileSync(configPath, JSON.stringify(cfg));
    const output = await withKernel(cfg, { configPath, cwd: scratch('gvisor-cwd') }, async (kernel) =>
      text(await kernel.assembleTools({ agentId: 'main' }).execute('exec', { command: "dmesg | head -1; echo x > .git/hooks/pre-commit; echo '{}' > pincer.config.json; echo ok > inside.txt; echo done" })),
    );
    expect(output).toContain('Starting gVisor');
    expect(output).toContain('done');
    expect(readFileSync(path.join(ws, 'inside.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(readFileSync(configPath, 'utf8')).not.toBe('{}\n');
  }, 180_000);
});
