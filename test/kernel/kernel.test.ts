import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const echo = path.join(root, 'dist/test/fixtures/plugins/echo.js');
const crash = path.join(root, 'dist/test/fixtures/plugins/crash-on-start.js');
const quiet = () => undefined;
// The agents' workspace: not the checkout, where the fixture plugins live (plugin code inside a workspace is refused).
const cwd = mkdtempSync(path.join(tmpdir(), 'pincer-kernel-ws-'));

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

describe('the kernel end to end, with real plugin processes', () => {
  let kernel: Kernel;
  const config: PincerConfig = {
    plugins: [{ id: 'echo', module: echo, coreTools: ['read'] }], // echo serves the core name `read` by designation
    tools: { deny: ['env'] },
    agents: {
      list: [
        { id: 'main', default: true, sandbox: { mode: 'non-main', backend: 'mem' } },
        { id: 'ops', sandbox: { mode: 'all', backend: 'docker' } },
      ],
    },
  };

  beforeAll(async () => {
    kernel = createKernel(config, { logger: quiet, cwd });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
  });

  it('assembles the policy-filtered tools synchronously, without touching the plugin', () => {
    const before = kernel.plugins()[0].inflight;
    const toolSet = kernel.assembleTools({ agentId: 'main' });
    expect(toolSet).not.toBeInstanceOf(Promise);
    const names = toolSet.tools.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('env');
    expect(kernel.plugins()[0].inflight).toBe(before);
    expect(toolSet.tools.find((t) => t.name === 'echo')?.inputSchema).toMatchObject({ type: 'object', properties: {} });
  });

  it('runs a call in the plugin process and returns its result', async () => {
    const result = await kernel.assembleTools().execute('echo', { a: 1 });
    expect(JSON.parse(text(result))).toEqual({ a: 1 });
  });

  it('coerces a JSON string from a streaming provider into params', async () => {
    const result = await kernel.assembleTools().execute('echo', '{"b":2}');
    expect(JSON.parse(text(result))).toEqual({ b: 2 });
  });

  it('explains a tool the policy removed instead of calling it unknown', async () => {
    const toolSet = kernel.assembleTools();
    expect(toolSet.explain('env')).toMatchObject({ present: false, removal: { layer: 'global', ruleKind: 'deny', configKey: 'tools.deny' } });
    const result = await toolSet.execute('env', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/tools\.deny/);
  });

  it("routes a sandboxed session's workspace requests to the backend plugin that serves it", async () => {
    const toolSet = kernel.assembleTools({ agentId: 'main', sessionKey: 'agent:main:telegram:group:1' });
    expect(toolSet.sandbox).toEqual({ mode: 'non-main', sandboxed: true, backend: 'mem' });
    const result = await toolSet.execute('read', { path: 'notes.txt' });
    expect(text(result)).toBe('mem:notes.txt');
  });

  it('fails a workspace request with an operator-shaped message when no plugin provides the backend', async () => {
    const toolSet = kernel.assembleTools({ agentId: 'ops' });
    const result = await toolSet.execute('read', { path: 'x' });
    expect(result.isError).toBe(true);
    expect(String(result.details?.error)).toMatch(/no plugin provides the sandbox backend "docker"/);
    expect(String(result.details?.error)).toMatch(/sandbox-docker.*agents\.ops\.sandbox\.mode to "off"/);
  });

  it('refuses a run for an agent the config does not list, naming the configured ones', () => {
    expect(() => kernel.assembleTools({ agentId: 'mian' })).toThrow(/no agent "mian" in agents.list \(configured: main, ops\)/);
  });

  it('emits diagnostics without raw params', async () => {
    const events: { type: string }[] = [];
    const off = kernel.diagnostics.on('*', (event) => events.push(event as never));
    await kernel.assembleTools().execute('echo', { secret: 'hunter2' });
    off();
    expect(events.map((e) => e.type)).toEqual(['tool.execution.started', 'tool.execution.completed']);
    expect(JSON.stringify(events)).not.toContain('hunter2');
  });
});

describe('required plugins', () => {
  it('blocks every call of an agent whose required plugin failed, instead of running without it', async () => {
    const kernel = createKernel(
      {
        plugins: [{ id: 'echo', module: echo }, { id: 'guard', module: crash, required: true }],
        agents: { list: [{ id: 'main', plugins: ['echo', 'guard'] }] },
      },
      { logger: quiet, cwd },
    );
    await kernel.start();
    try {
      const result = await kernel.assembleTools().execute('echo', { a: 1 });
      expect(result.details).toMatchObject({ status: 'blocked' });
      expect(text(result)).toMatch(/required plugin/);
      expect(text(result)).toMatch(/"guard"/);
    } finally {
      await kernel.stop();
    }
  });
});

describe('plugin hooks through the kernel', () => {
  const guard = path.join(root, 'dist/test/fixtures/plugins/guard-hook.js');
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = createKernel({ plugins: [{ id: 'guard', module: guard }] }, { logger: quiet, cwd });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
  });

  it('returns a structured blocked result when a hook blocks, and the tool never runs', async () => {
    const result = await kernel.assembleTools().execute('danger', {});
    expect(result.details).toMatchObject({ status: 'blocked', reason: 'danger is not allowed here' });
    expect(text(result)).not.toContain('ran danger');
  });

  it('applies params a hook rewrites', async () => {
    expect(text(await kernel.assembleTools().execute('greet', { name: 'model' }))).toBe('hello operator');
  });

  it('fails the call closed when a hook throws', async () => {
    await expect(kernel.assembleTools().execute('explode', {})).rejects.toMatchObject({ code: 'POLICY_HOOK_FAILED' });
  });
});
