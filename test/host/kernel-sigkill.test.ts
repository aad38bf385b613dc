import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, fixture, groupMembers, waitFor } from './helpers.js';

const python = path.join(ROOT, 'examples/python-plugin/plugin.py');

describe('a kernel killed with SIGKILL', () => {
  it('leaves no process of any plugin group behind: each plugin’s watchdog kills its own group', async () => {
    const hostModule = pathToFileURL(path.join(ROOT, 'dist/kernel/host/index.js')).href;
    const script = `
      import { mkdtempSync } from 'node:fs';
      import { tmpdir } from 'node:os';
      import path from 'node:path';
      const { createPluginHost } = await import(${JSON.stringify(hostModule)});
      const host = createPluginHost({ logger: () => {}, stateDir: mkdtempSync(path.join(tmpdir(), 'pincer-sigkill-')), plugins: [
        { id: 'keeps-children', module: ${JSON.stringify(fixture('keeps-children'))} },
        { id: 'forker', module: ${JSON.stringify(fixture('forks-grandchild'))} },
        // The Python example without the SDK, with a child of its own in its group.
        { id: 'py', command: ['/bin/sh', '-c', 'sleep 1000 & exec python3 "$0"', ${JSON.stringify(python)}] },
      ] });
      await host.start();
      await host.invokeTool('keeps-children', 'children', {});
      console.log(JSON.stringify(host.status().map((s) => s.pid)));
      setInterval(() => {}, 1000);`;
    const kernel = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pgids = await new Promise<number[]>((resolve) => kernel.stdout.once('data', (d) => resolve(JSON.parse(String(d)) as number[])));
    expect(pgids).toHaveLength(3);
    // Every group really has children running besides the plugin itself.
    await waitFor(() => pgids.every((g) => groupMembers(g).length >= 2), 10_000, 'children running');
    kernel.kill('SIGKILL');
    await waitFor(() => pgids.every((g) => groupMembers(g).length === 0), 10_000, 'every plugin group to be empty');
    expect(pgids.flatMap(groupMembers)).toEqual([]);
  }, 30_000);
});
