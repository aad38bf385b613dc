import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunContextError } from '../../kernel/index.js';
import { startKernel, text, turnPlugins, type TestKernel } from './helpers.js';

describe('memory-triggered runs', () => {
  let t: TestKernel;
  beforeAll(async () => {
    t = await startKernel((workspace) => ({ plugins: turnPlugins(workspace, []), tools: { profile: 'coding' }, agents: { list: [{ id: 'main', default: true, workspace }] } }));
    writeFileSync(path.join(t.workspace, 'MEMORY.md'), 'keep me\n');
  });
  afterAll(async () => {
    await t.kernel.stop();
  });

  it('must name the one path they write, a relative one inside the workspace', () => {
    expect(() => t.kernel.assembleTools({ trigger: 'memory' })).toThrow(RunContextError);
    expect(() => t.kernel.assembleTools({ trigger: 'memory' })).toThrow(/memoryWritePath/);
    for (const bad of ['/etc/passwd', '../outside.md', 'memory/../../x', 'memory/']) {
      expect(() => t.kernel.assembleTools({ trigger: 'memory', memoryWritePath: bad }), bad).toThrow(/must be a file path relative to the workspace/);
    }
  });

  it('hold only read and write, every other tool removed by the memory layer', () => {
    const tools = t.kernel.assembleTools({ trigger: 'memory', memoryWritePath: 'memory/2030-01-01.md' });
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['read', 'write']);
    expect(tools.explain('exec')).toMatchObject({ present: false, removal: { layer: 'memory', ruleKind: 'allow' } });
    expect(tools.explain('edit')).toMatchObject({ present: false, removal: { layer: 'memory' } });
  });

  it('append to their one path through the sandbox backend, never replacing it, and write nowhere else', async () => {
    const tools = t.kernel.assembleTools({ trigger: 'memory', memoryWritePath: './memory/2030-01-01.md' });
    expect((await tools.execute('write', { path: 'memory/2030-01-01.md', content: 'first\n' })).outcome).toBe('ok');
    expect((await tools.execute('write', { path: 'memory/2030-01-01.md', content: 'second\n' })).outcome).toBe('ok');
    expect(readFileSync(path.join(t.workspace, 'memory/2030-01-01.md'), 'utf8')).toBe('first\nsecond\n');
    for (const other of ['MEMORY.md', 'memory/2030-01-02.md', '../escape.md']) {
      const refused = await tools.execute('write', { path: other, content: 'overwritten' });
      expect(refused.isError, other).toBe(true);
      expect(text(refused)).toContain('MEMORY_PATH_ONLY');
    }
    expect(readFileSync(path.join(t.workspace, 'MEMORY.md'), 'utf8')).toBe('keep me\n');
    expect(text(await tools.execute('read', { path: 'MEMORY.md' }))).toContain('keep me');
  });

  it('still cannot reach a protected path, even as its one path', async () => {
    const tools = t.kernel.assembleTools({ trigger: 'memory', memoryWritePath: '.git/config' });
    const refused = await tools.execute('write', { path: '.git/config', content: '[core]\n' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('PROTECTED_PATH');
  });
});
