import { describe, expect, it } from 'vitest';
import { FakeKernel, fakeApi } from './helpers/fake-kernel.js';
import { runInProcess } from './helpers/capture.js';

describe('pincer commands in-process, against a fake kernel', () => {
  it('prints the tool table, then the removed tools with their layer and rule, then warnings', async () => {
    const kernel = new FakeKernel({ agentDeny: { main: ['exec'] } });
    const { code, stdout } = await runInProcess(['tools', '--agent', 'main'], fakeApi(kernel));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^2 tools for agent main/);
    expect(stdout).toMatch(/NAME\s+PLUGIN\s+DESCRIPTION\nread\s+fs\s+Read a file from the workspace/);
    expect(stdout).toMatch(/Removed \(1\)\nTOOL\s+LAYER\s+RULE\s+CONFIG KEY\nexec\s+agent\s+deny: exec\s+agents\.main\.tools\.deny/);
    expect(stdout).toContain('Warnings (1)');
    expect(kernel.started && kernel.stopped).toBe(true);
  });

  it('emits one JSON document with tools, removals, allowlist and sandbox under --json', async () => {
    const kernel = new FakeKernel({ agentDeny: { main: ['exec'] } });
    const { code, stdout } = await runInProcess(['tools', '--json'], fakeApi(kernel));
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.tools.map((t: { name: string }) => t.name)).toEqual(['read', 'write']);
    expect(report.removed[0]).toMatchObject({ tool: 'exec', layer: 'agent', ruleKind: 'deny' });
    expect(report.run).toEqual({ trigger: 'user' });
    expect(report.config).toBe('embedded default');
  });

  it('maps run flags into the run context, reading @name as a username', async () => {
    const kernel = new FakeKernel();
    const { stdout } = await runInProcess(['tools', '--json', '-a', 'ops', '--sender', '@alice', '--group', 'g1', '--provider', 'openai', '--model', 'gpt'], fakeApi(kernel));
    expect(JSON.parse(stdout).run).toEqual({ trigger: 'user', agentId: 'ops', sender: { username: 'alice' }, groupId: 'g1', provider: 'openai', model: 'gpt' });
  });

  it('explains a removed tool step by step with the config key to change', async () => {
    const kernel = new FakeKernel({ agentDeny: { main: ['exec'] } });
    const { code, stdout } = await runInProcess(['explain', 'exec'], fakeApi(kernel));
    expect(code).toBe(0);
    expect(stdout).toContain('exec is not available to agent (default): removed by the agent layer.');
    expect(stdout).toMatch(/1\. ✓ profile/);
    expect(stdout).toMatch(/✗ agent\s+— agents\.main\.tools\.deny/);
    expect(stdout).toContain('To change it: remove "exec" from agents.main.tools.deny');
  });

  it('suggests close names for an unknown tool and exits 1', async () => {
    const { code, stdout } = await runInProcess(['explain', 'raed'], fakeApi(new FakeKernel()));
    expect(code).toBe(1);
    expect(stdout).toContain('Did you mean: read');
  });

  it('runs a call, prints text and JSON content, and exits 1 when the tool reports an error', async () => {
    const kernel = new FakeKernel({ execute: (name) => ({ content: [{ type: 'text', text: `boom from ${name}` }], isError: true, details: { status: 'blocked' } }) });
    const { code, stdout, stderr } = await runInProcess(['call', 'read', '{"path":"a.txt"}'], fakeApi(kernel));
    expect(code).toBe(1);
    expect(stdout).toBe('boom from read\n');
    expect(stderr).toContain('✗ read blocked (HOOK_BLOCKED)');
    expect(kernel.calls[0]).toMatchObject({ name: 'read', params: { path: 'a.txt' } });
  });

  it('refuses a call of a tool policy removed, without running it', async () => {
    const kernel = new FakeKernel({ agentDeny: { main: ['exec'] } });
    const { code, stderr } = await runInProcess(['call', 'exec', '{}'], fakeApi(kernel));
    expect(code).toBe(1);
    expect(stderr).toContain('✗ exec denied (TOOL_REMOVED)');
    expect(stderr).toContain('removed by the agent layer');
    expect(kernel.calls).toHaveLength(0);
  });

  it('rejects params that are not a JSON object with a usage error', async () => {
    const bad = await runInProcess(['call', 'read', '{nope'], fakeApi(new FakeKernel()));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('params are not valid JSON');
    const array = await runInProcess(['call', 'read', '[1]'], fakeApi(new FakeKernel()));
    expect(array.stderr).toContain('params must be a JSON object, got an array');
  });

  it('names an unknown flag and the command, and exits 2', async () => {
    const { code, stderr } = await runInProcess(['tools', '--agnet', 'x'], fakeApi(new FakeKernel()));
    expect(code).toBe(2);
    expect(stderr).toContain("unknown flag '--agnet' for 'pincer tools'");
    expect(stderr).toContain("Run 'pincer tools --help'");
  });

  it('suggests the flag a mistyped one meant', async () => {
    const { code, stderr } = await runInProcess(['call', 'read', '--worksapce', '.'], fakeApi(new FakeKernel()));
    expect(code).toBe(2);
    expect(stderr).toContain("unknown flag '--worksapce' for 'pincer call' (did you mean '--workspace'?)");
    const far = await runInProcess(['tools', '--frobnicate'], fakeApi(new FakeKernel()));
    expect(far.stderr).toContain("unknown flag '--frobnicate' for 'pincer tools'\n");
  });

  it('names an unknown command with a suggestion, and exits 2', async () => {
    const { code, stderr } = await runInProcess(['tool'], fakeApi(new FakeKernel()));
    expect(code).toBe(2);
    expect(stderr).toContain("unknown command 'tool' (did you mean 'tools'?)");
  });

  it('prints every config problem with its path and exits 1', async () => {
    const issues = [
      { path: 'agents.list[0].tools.allow[1]', message: 'expected string' },
      { path: 'tools.profile', message: 'unknown profile "codng"' },
    ];
    const api = fakeApi(new FakeKernel(), {
      loadConfig: async () => {
        throw Object.assign(new Error('invalid'), { code: 'CONFIG_INVALID', issues });
      },
    });
    const { code, stdout } = await runInProcess(['config', 'check', '--config', 'x.json'], api);
    expect(code).toBe(1);
    expect(stdout).toContain('2 problems');
    expect(stdout).toMatch(/agents\.list\[0\]\.tools\.allow\[1\]\s+expected string/);
    expect(stdout).toMatch(/tools\.profile\s+unknown profile "codng"/);
  });

  it('shows plugin health and exits 1 when a plugin has failed', async () => {
    const kernel = new FakeKernel({ plugins: [
      { id: 'fs', state: 'ready', version: '0.1.0', protocolVersion: '1', restarts: 0, tools: 5 },
      { id: 'shell', state: 'failed', restarts: 5, lastError: 'PLUGIN_CRASHED: exit 1', tools: 0 },
    ] });
    const { code, stdout } = await runInProcess(['plugins'], fakeApi(kernel));
    expect(code).toBe(1);
    expect(stdout).toMatch(/PLUGIN\s+STATE\s+VERSION\s+PROTOCOL\s+RESTARTS\s+TOOLS\s+LAST ERROR/);
    expect(stdout).toMatch(/shell\s+failed\s+-\s+-\s+5\s+0\s+PLUGIN_CRASHED: exit 1/);
  });

  it('fails the health check while a plugin restarts after a crash, and tools names it', async () => {
    const plugins = [
      { id: 'fs', state: 'ready' as const, restarts: 0, tools: 2 },
      { id: 'shell', state: 'restarting' as const, restarts: 1, lastError: { code: 'PLUGIN_CRASHED', message: 'exited with code 1 during start' }, tools: 0 },
    ];
    const health = await runInProcess(['plugins'], fakeApi(new FakeKernel({ plugins })));
    expect(health.code).toBe(1);
    const tools = await runInProcess(['tools'], fakeApi(new FakeKernel({ plugins })));
    expect(tools.code).toBe(0);
    expect(tools.stdout).toContain('Plugins not serving (1)\n  ✗ shell restarting: PLUGIN_CRASHED: exited with code 1 during start');
  });

  it('prints help for a command without loading the kernel', async () => {
    const api = fakeApi(new FakeKernel(), { createKernel: () => { throw new Error('must not load'); } });
    const { code, stdout } = await runInProcess(['call', '--help'], api);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: pincer call TOOL ['JSON params' | -]");
  });
});
