import { describe, expect, it } from 'vitest';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { createKernel, type PincerConfig } from '../../kernel/index.js';

async function withKernel(tools: PincerConfig['tools'], fn: (kernel: ReturnType<typeof createKernel>, logged: string[]) => void): Promise<void> {
  const logged: string[] = [];
  const kernel = createKernel({ plugins: bundledPluginConfigs(), tools }, { cwd: scratchCwd(), logger: (r) => r.level === 'warn' && logged.push(r.message) });
  await kernel.start();
  try {
    fn(kernel, logged);
  } finally {
    await kernel.stop();
  }
}

describe('policy warnings', () => {
  it('say nothing about an alsoAllow entry that matched, also after explaining a tool no plugin provides', async () => {
    await withKernel({ allow: ['read', 'exec'], alsoAllow: ['ls', 'srv__*'], deny: ['process'] }, (kernel, logged) => {
      const toolSet = kernel.assembleTools();
      expect(toolSet.tools.map((t) => t.name)).toContain('ls');
      expect(toolSet.explain('web_fetch')).toMatchObject({ present: false, unknown: true, coreTool: true });
      expect(toolSet.explain('nosuch')).toMatchObject({ present: false, unknown: true });
      expect(logged.filter((message) => /\b(ls|read|exec)\b/.test(message))).toEqual([]);
      // `srv__*` admits nothing here: that one is worth a word, under its own key.
      expect(toolSet.warnings).toEqual([expect.stringMatching(/^tools: tools\.alsoAllow \(layer global\) names tools that match nothing here \(srv__\*\)/)]);
      expect(logged).toEqual(toolSet.warnings);
    });
  });

  it('name the key they came from, once for a list several layers use, and reach the log once per kernel', async () => {
    await withKernel({ profile: 'coding', allow: ['read', 'nosuch_a'], alsoAllow: ['nosuch_b'] }, (kernel, logged) => {
      const first = kernel.assembleTools();
      expect(first.warnings).toEqual([
        expect.stringMatching(/^tools: tools\.alsoAllow \(layers profile, global\) names tools that match nothing here \(nosuch_b\)/),
        expect.stringMatching(/^tools: tools\.allow \(layer global\) names tools that match nothing here \(nosuch_a\)/),
      ]);
      expect(kernel.assembleTools().warnings).toEqual(first.warnings);
      kernel.assembleTools({ provider: 'openai' });
      expect(logged).toEqual(first.warnings);
    });
  });
});
