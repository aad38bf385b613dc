import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/helpers/capture.js';
import { FakeKernel, fakeApi } from '../cli/helpers/fake-kernel.js';

/** `pincer plugins` says which plugin runs without the sandbox it declared, and why. */
describe('pincer plugins and confinement', () => {
  it('lists the warning of a plugin that runs unconfined although it declares confinement', async () => {
    const warning = 'plugin "sandbox-local" runs unconfined although it declares confinement: bwrap cannot create namespaces here';
    const kernel = new FakeKernel({
      plugins: [
        { id: 'fs', state: 'ready', version: '0.1.0', protocolVersion: 1, restarts: 0, tools: 6, confinement: { mode: 'confined', detail: 'no paths; network none; no spawn' } },
        { id: 'sandbox-local', state: 'ready', version: '0.1.0', protocolVersion: 1, restarts: 0, tools: 0, confinement: { mode: 'unconfined', detail: 'bubblewrap unavailable', warning } },
      ],
    });
    const { code, stdout } = await runInProcess(['plugins'], fakeApi(kernel));
    expect(code).toBe(0);
    expect(stdout).toContain(`confinement ${warning}`);
    expect(stdout).not.toMatch(/confinement .*"fs"/);
    const json = JSON.parse((await runInProcess(['plugins', '--json'], fakeApi(kernel))).stdout) as { plugins: Array<{ id: string; confinement?: { mode: string } }> };
    expect(json.plugins.map((p) => [p.id, p.confinement?.mode])).toEqual([['fs', 'confined'], ['sandbox-local', 'unconfined']]);
  });
});
