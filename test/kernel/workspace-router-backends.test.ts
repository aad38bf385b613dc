import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';

// Which plugin serves a session's backend, with real plugin processes: probe plugins that
// declare backend ids (answering every read with `probe:<path>`) against the real local backend.
const root = path.resolve(import.meta.dirname, '../..');
const probe = path.join(root, 'dist/test/fixtures/plugins/session-probe.js');
const local = path.join(root, 'dist/plugins/sandbox-local/src/main.js');
const quiet = () => undefined;

const probePlugin = (id: string, backend?: string) => ({ id, module: probe, env: { PINCER_PLUGIN_ID: id, ...(backend ? { PROBE_BACKEND: backend } : {}) } });

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pincer-backends-'));
  writeFileSync(path.join(dir, 'secret.txt'), 'real file');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function withKernel(config: PincerConfig, fn: (kernel: Kernel) => Promise<void>, logger: NonNullable<Parameters<typeof createKernel>[1]>['logger'] = quiet): Promise<void> {
  const kernel = createKernel(config, { cwd: scratchCwd(), logger });
  await kernel.start();
  try {
    await fn(kernel);
  } finally {
    await kernel.stop();
  }
}

const read = async (kernel: Kernel, agentId: string) => text(await kernel.assembleTools({ agentId }).execute('peek', { path: 'secret.txt' }));

describe('sandbox backends resolve from the plugins enabled for the agent', () => {
  it('never hands a session to a plugin the agent does not enable, nor the bundled ids to another plugin, nor an id two plugins declare', async () => {
    // "claimer" is listed first and declares the bundled id "local"; "twin-a" and "twin-b" both declare "remote".
    const config: PincerConfig = {
      plugins: [probePlugin('claimer', 'local'), probePlugin('reader'), probePlugin('twin-a', 'remote'), probePlugin('twin-b', 'remote'), { id: 'sandbox-local', module: local }],
      tools: { sandbox: { tools: { allow: [] } } },
      agents: {
        list: [
          { id: 'plain', workspace: dir, plugins: ['reader', 'sandbox-local'] },
          { id: 'claimed', workspace: dir, plugins: ['reader', 'claimer', 'sandbox-local'] },
          { id: 'twins', workspace: dir, plugins: ['reader', 'twin-a', 'twin-b'], sandbox: { mode: 'all', backend: 'remote' } },
        ],
      },
    };
    const errors: string[] = [];
    await withKernel(config, async (kernel) => {
      // Reported at start, before any call, with the config path of each plugin list (19.2).
      expect(errors).toEqual([
        expect.stringMatching(/^config agents\.list\[1\]\.plugins: plugin "claimer" declares the bundled sandbox backend "local", which belongs to "sandbox-local"/),
        expect.stringMatching(/^config agents\.list\[2\]\.plugins: plugins "twin-a" and "twin-b" both declare the sandbox backend "remote" for agent "twins"/),
      ]);
      expect(await read(kernel, 'plain')).toBe('real file');
      const claimed = await read(kernel, 'claimed');
      expect(claimed).toMatch(/^ERROR IO_ERROR/);
      expect(claimed).toMatch(/"claimer" declares the bundled sandbox backend "local", which belongs to "sandbox-local".*backendPlugins\.local/);
      expect(await read(kernel, 'twins')).toMatch(/plugins "twin-a" and "twin-b" both declare the sandbox backend "remote" for agent "twins"/);
    }, (record) => void (record.level === 'error' && errors.push(record.message)));
  });

  it('lets a plugin serve a bundled backend id only when backendPlugins names it', async () => {
    const config: PincerConfig = {
      plugins: [probePlugin('claimer', 'local'), probePlugin('reader'), { id: 'sandbox-local', module: local }],
      backendPlugins: { local: 'claimer' },
      agents: { list: [{ id: 'chosen', workspace: dir, plugins: ['reader', 'claimer', 'sandbox-local'] }, { id: 'without', workspace: dir, plugins: ['reader', 'sandbox-local'] }] },
    };
    await withKernel(config, async (kernel) => {
      expect(await read(kernel, 'chosen')).toBe('probe:secret.txt');
      expect(await read(kernel, 'without')).toMatch(/backendPlugins\.local names plugin "claimer", which is not enabled for agent "without"/);
    });
  });
});
