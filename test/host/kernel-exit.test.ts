import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, fixture, groupMembers, waitFor } from './helpers.js';

describe('the kernel process exiting', () => {
  it('kills every plugin process group, even plugins that ignore SIGTERM and their grandchildren', async () => {
    const hostModule = pathToFileURL(path.join(ROOT, 'dist/kernel/host/index.js')).href;
    const script = `
      const { createPluginHost } = await import(${JSON.stringify(hostModule)});
      const host = createPluginHost({ logger: () => {}, plugins: [
        { id: 'stubborn', module: ${JSON.stringify(fixture('hang-on-shutdown'))} },
        { id: 'forker', module: ${JSON.stringify(fixture('forks-grandchild'))} },
      ] });
      await host.start();
      const grandchild = (await host.invokeTool('forker', 'grandchild', {})).content[0].text;
      console.log(JSON.stringify({ pgids: host.status().map((s) => s.pid), grandchild: Number(grandchild) }));
      process.exit(0); // no host.stop(): the exit hook must clean up`;
    const kernel = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const out = await new Promise<string>((resolve) => {
      let buf = '';
      kernel.stdout.on('data', (d) => (buf += d));
      kernel.on('exit', () => resolve(buf));
    });
    const { pgids, grandchild } = JSON.parse(out.trim()) as { pgids: number[]; grandchild: number };
    expect(pgids).toHaveLength(2);
    await waitFor(() => pgids.every((g) => groupMembers(g).length === 0), 3_000, 'plugin groups to die');
    expect(groupMembers(pgids[1]!)).not.toContain(grandchild);
  });
});
