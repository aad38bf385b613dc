import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, defaultConfig, type Kernel } from '../../kernel/index.js';

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

describe('the embedded default: bundled fs and shell plugins on the local backend, through the kernel', () => {
  let kernel: Kernel;
  let workspace: string;

  beforeAll(async () => {
    workspace = mkdtempSync(path.join(tmpdir(), 'pincer-e2e-'));
    writeFileSync(path.join(workspace, 'notes.txt'), 'one\ntwo\nthree\n');
    symlinkSync('/etc', path.join(workspace, 'escape'));
    kernel = createKernel(defaultConfig({ cwd: workspace }), { logger: () => undefined });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
  });

  it('gives the default agent the coding tools the bundled plugins provide', () => {
    const names = kernel.assembleTools().tools.map((t) => t.name);
    expect(names).toEqual(['ls', 'read', 'write', 'edit', 'apply_patch', 'exec', 'process']);
  });

  it('reads, writes and edits files in the workspace through the plugin and the backend', async () => {
    const tools = kernel.assembleTools();
    expect(text(await tools.execute('read', { path: 'notes.txt' }))).toContain('two');
    await tools.execute('write', { path: 'sub/new.txt', content: 'alpha beta' });
    await tools.execute('edit', { path: 'sub/new.txt', oldText: 'beta', newText: 'gamma' });
    expect(readFileSync(path.join(workspace, 'sub/new.txt'), 'utf8')).toBe('alpha gamma');
    const patch = '*** Begin Patch\n*** Update File: notes.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch';
    const patched = await tools.execute('apply_patch', { input: patch });
    expect(patched.isError).toBeFalsy();
    expect(readFileSync(path.join(workspace, 'notes.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });

  it('runs a command with the workspace as its directory', async () => {
    const result = await kernel.assembleTools().execute('exec', { command: 'pwd && echo hi' });
    expect(text(result)).toContain(workspace);
    expect(text(result)).toContain('hi');
  });

  it('refuses traversal out of the workspace, directly and through a symlink, with a typed error', async () => {
    const tools = kernel.assembleTools();
    const dotdot = await tools.execute('read', { path: '../../etc/passwd' });
    expect(dotdot.isError).toBe(true);
    expect(JSON.stringify(dotdot.details)).toMatch(/PATH_OUTSIDE_MOUNT|PATH_NOT_ADMITTED/);
    const viaLink = await tools.execute('read', { path: 'escape/hostname' });
    expect(viaLink.isError).toBe(true);
    expect(JSON.stringify(viaLink.details)).toMatch(/PATH_OUTSIDE_MOUNT/);
  });

  it('lets a background run outlive its call and be polled with the process tool', async () => {
    const tools = kernel.assembleTools();
    const started = await tools.execute('exec', { command: 'sleep 0.2; echo done-bg', background: true });
    const sessionId = (started.details as { sessionId?: string }).sessionId;
    expect(sessionId).toBeTruthy();
    const polled = await tools.execute('process', { action: 'poll', sessionId, waitMs: 5000 });
    expect(JSON.stringify(polled)).toContain('done-bg');
  });

  it('keeps the call path honest for a tool the policy removed', async () => {
    const denying = createKernel({ ...defaultConfig({ cwd: workspace }), tools: { profile: 'coding', deny: ['exec'] } }, { logger: () => undefined });
    await denying.start(); // lazy plugins: nothing is spawned
    const tools = denying.assembleTools();
    expect(tools.tools.map((t) => t.name)).not.toContain('exec');
    expect(tools.explain('bash')).toMatchObject({ tool: 'exec', present: false, removal: { configKey: 'tools.deny' } });
    await denying.stop();
  });
});

describe('explaining a tool no enabled plugin provides', () => {
  it('says whether the policy would still remove it, so enabling a plugin is or is not enough', async () => {
    const kernel = createKernel(defaultConfig({ cwd: tmpdir() }), { logger: () => undefined });
    await kernel.start(); // lazy plugins: nothing is spawned
    const tools = kernel.assembleTools();
    expect(tools.explain('message')).toMatchObject({ present: false, unknown: true, coreTool: true, wouldBeRemovedBy: { layer: 'profile', ruleKind: 'allow' } });
    const webSearch = tools.explain('web_search');
    expect(webSearch).toMatchObject({ present: false, unknown: true, coreTool: true });
    expect(webSearch).not.toHaveProperty('wouldBeRemovedBy');
    expect(tools.explain('made_up')).toMatchObject({ unknown: true, coreTool: false });
    await kernel.stop();
  });
});
