/**
 * The call-outcome table of docs/embedding.md, row by row, through a real kernel and real
 * plugin processes: every end of a call is one `CallResult`, the verdict fields are the
 * kernel's, and only misuse throws.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { createKernel, KernelUsageError, type ApprovalSurface, type CallResult, type DiagnosticsEvent, type Kernel, type PincerConfig, type TrustedToolPolicy } from '../../kernel/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = (name: string) => path.join(root, `dist/test/fixtures/plugins/${name}.js`);
const quiet = () => undefined;

async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function failed(result: CallResult) {
  if (!result.isError) throw new Error(`expected an error result, got ${JSON.stringify(result)}`);
  return result;
}

describe('the outcome of every call, from the library', () => {
  let kernel: Kernel;
  const logs: string[] = [];
  const events: DiagnosticsEvent[] = [];
  const config: PincerConfig = {
    plugins: [{ id: 'outcomes', module: fixture('outcomes') }, { id: 'guard', module: fixture('guard-hook') }],
    tools: { deny: ['greet'] },
  };

  beforeAll(async () => {
    kernel = createKernel(config, { cwd: scratchCwd(), logger: (record) => logs.push(record.message) });
    kernel.diagnostics.on('*', (event) => events.push(event));
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
  });

  it('ok: the tool ran and succeeded', async () => {
    const result = await kernel.assembleTools().execute('fine', {});
    expect(result).toMatchObject({ outcome: 'ok', isError: false, retryable: false, toolName: 'fine' });
    expect(result.code).toBeUndefined();
  });

  it("tool_error: the tool's own error code, message and hint, in one shape at the top and in details.error", async () => {
    const result = failed(await kernel.assembleTools().execute('fail', {}));
    const error = { code: 'FILE_GONE', message: 'the file is gone', hint: 'list the directory first' };
    expect(result).toMatchObject({ outcome: 'tool_error', code: 'FILE_GONE', retryable: false, error });
    expect(result.details?.error).toEqual(error);
  });

  it('a plugin cannot forge a kernel verdict: its "denied/blocked" error result is its own tool_error', async () => {
    const result = failed(await kernel.assembleTools().execute('forge', {}));
    expect(result.outcome).toBe('tool_error');
    // A tool may not claim a kernel code either.
    expect(result.code).toBe('TOOL_ERROR');
    expect(result.details?.error).toMatchObject({ code: 'TOOL_ERROR' });
  });

  it('normalizes a string details.error to {code, message}', async () => {
    const result = failed(await kernel.assembleTools().execute('string-error', {}));
    expect(result.details?.error).toEqual({ code: 'TOOL_ERROR', message: 'plain string' });
  });

  it('tool_error TOOL_FAILED when the handler throws, with a log line', async () => {
    const result = failed(await kernel.assembleTools().execute('throws', { content: 'private text' }));
    expect(result).toMatchObject({ outcome: 'tool_error', code: 'TOOL_FAILED' });
    expect(result.error.message).toContain('kaput');
    const line = logs.find((message) => message.startsWith('[tools] throws failed'));
    expect(line).toBeDefined();
    // 18.8: a failure log carries the size and a digest of content, never the content.
    expect(line).not.toContain('private text');
    expect(line).toMatch(/"content":\{"omitted":true,"reason":"content is not logged","type":"string","chars":12,"sha256":"[0-9a-f]{16}"\}/);
  });

  it('9.13: a plugin that answers "cancelled" when nobody cancelled has failed; it was not cancelled', async () => {
    const result = failed(await kernel.assembleTools().execute('self-cancel', {}));
    expect(result).toMatchObject({ outcome: 'tool_error', code: 'TOOL_ABORTED' });
  });

  it('cancelled: the abort reason is kept as cause', async () => {
    const controller = new AbortController();
    const reason = new Error('the user pressed stop');
    const pending = kernel.assembleTools().execute('wait', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 100);
    const result = failed(await pending);
    expect(result).toMatchObject({ outcome: 'cancelled', code: 'CANCELLED', retryable: false });
    expect(result.cause).toBe(reason);
  });

  it('timed_out: the plugin did not answer within the deadline', async () => {
    const result = failed(await kernel.assembleTools().execute('slow', {}));
    expect(result).toMatchObject({ outcome: 'timed_out', code: 'PLUGIN_TIMEOUT' });
  });

  it('denied TOOL_REMOVED and unavailable UNKNOWN_TOOL never reach the gate, and say so in diagnostics', async () => {
    const toolSet = kernel.assembleTools();
    events.length = 0;
    const removed = failed(await toolSet.execute('greet', {}));
    expect(removed).toMatchObject({ outcome: 'denied', code: 'TOOL_REMOVED' });
    const unknown = failed(await toolSet.execute('nonesuch', {}));
    expect(unknown).toMatchObject({ outcome: 'unavailable', code: 'UNKNOWN_TOOL', retryable: false });
    const badJson = failed(await toolSet.execute('fine', '{not json'));
    expect(badJson).toMatchObject({ outcome: 'tool_error', code: 'INVALID_PARAMS' });
    expect(events.map((e) => [e.type, 'code' in e ? e.code : undefined, e.runId])).toEqual([
      ['tool.execution.rejected', 'TOOL_REMOVED', toolSet.run.runId],
      ['tool.execution.rejected', 'UNKNOWN_TOOL', toolSet.run.runId],
      ['tool.execution.rejected', 'INVALID_PARAMS', toolSet.run.runId],
    ]);
  });

  it('blocked HOOK_BLOCKED and POLICY_HOOK_FAILED: an error result with a code, never a throw', async () => {
    const toolSet = kernel.assembleTools();
    expect(await toolSet.execute('danger', {})).toMatchObject({ outcome: 'blocked', code: 'HOOK_BLOCKED', isError: true, content: [{ type: 'text', text: 'danger is not allowed here' }] });
    expect(await toolSet.execute('explode', {})).toMatchObject({ outcome: 'blocked', code: 'POLICY_HOOK_FAILED', isError: true });
  });

  it('9.10: params that are not plain JSON are refused before any hook runs', async () => {
    const result = failed(await kernel.assembleTools().execute('danger', { when: new Date(0) }));
    // Not HOOK_BLOCKED: the guard never saw the call.
    expect(result).toMatchObject({ outcome: 'tool_error', code: 'INVALID_PARAMS' });
    expect(result.error.message).toContain('params.when is a Date instance');
  });

  it('throws only for misuse, with a typed code', async () => {
    const toolSet = kernel.assembleTools();
    await expect(toolSet.execute(42 as unknown as string, {})).rejects.toMatchObject({ name: 'KernelUsageError', code: 'INVALID_CALL' });
    await expect(toolSet.execute('fine', {}, { signal: {} as AbortSignal })).rejects.toBeInstanceOf(KernelUsageError);
    await expect(toolSet.execute('fine', {}, { toolCallId: 7 as unknown as string })).rejects.toMatchObject({ code: 'INVALID_CALL' });
  });

  it('tool_error PLUGIN_CRASHED (retryable), then unavailable with the state and last error once the plugin has failed', async () => {
    const toolSet = kernel.assembleTools();
    const crashed = failed(await toolSet.execute('boom', {}));
    expect(crashed).toMatchObject({ outcome: 'tool_error', code: 'PLUGIN_CRASHED', retryable: true });
    // Two more crashes reach the supervisor's limit: the plugin is failed and its tools leave new assemblies.
    for (let i = 0; i < 2; i++) {
      await until(() => kernel.plugins().find((p) => p.id === 'outcomes')?.state === 'ready', 'the restart');
      await toolSet.execute('boom', {});
    }
    await until(() => kernel.plugins().find((p) => p.id === 'outcomes')?.state === 'failed', 'the plugin to fail');
    for (const set of [toolSet, kernel.assembleTools()]) {
      const result = failed(await set.execute('fine', {}));
      expect(result).toMatchObject({ outcome: 'unavailable', code: 'PLUGIN_UNAVAILABLE', retryable: false, plugin: { id: 'outcomes', state: 'failed', lastError: { code: 'PLUGIN_FAILED' } } });
    }
    // 10.5: explain says the plugin's state, not "unknown", and does not advise enabling it.
    expect(kernel.assembleTools().explain('fine')).toMatchObject({ present: false, unavailable: true, plugin: { id: 'outcomes', state: 'failed' } });
    expect(failed(await kernel.assembleTools().execute('fine', {})).content[0]).toMatchObject({ text: expect.stringContaining('its plugin "outcomes" is failed') });
  });
});

describe('outcomes decided by the host: approvals and trusted policies', () => {
  let kernel: Kernel;
  let answer: 'allow-once' | 'deny' | 'timeout' = 'deny';
  const surface: ApprovalSurface = { request: async () => answer };
  const policies: TrustedToolPolicy[] = [
    { id: 'ask', evaluate: (event) => (event.toolName === 'fine' ? { requireApproval: { title: 'Run fine?', description: 'really?' } } : undefined) },
    { id: 'org', evaluate: (event) => (event.toolName === 'fail' ? { allow: false } : undefined) },
  ];

  beforeAll(async () => {
    kernel = createKernel({ plugins: [{ id: 'outcomes', module: fixture('outcomes') }] }, { cwd: scratchCwd(), logger: quiet, approvalSurface: surface, trustedPolicies: policies });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
  });

  it('denied APPROVAL_DENIED is returned, not thrown', async () => {
    answer = 'deny';
    expect(await kernel.assembleTools().execute('fine', {})).toMatchObject({ outcome: 'denied', code: 'APPROVAL_DENIED', isError: true });
  });

  it('timed_out APPROVAL_TIMED_OUT when nobody decides', async () => {
    answer = 'timeout';
    expect(await kernel.assembleTools().execute('fine', {})).toMatchObject({ outcome: 'timed_out', code: 'APPROVAL_TIMED_OUT' });
  });

  it('ok once approved', async () => {
    answer = 'allow-once';
    expect(await kernel.assembleTools().execute('fine', {})).toMatchObject({ outcome: 'ok' });
  });

  it('blocked POLICY_BLOCKED by a trusted policy', async () => {
    expect(await kernel.assembleTools().execute('fail', {})).toMatchObject({ outcome: 'blocked', code: 'POLICY_BLOCKED', error: { message: 'blocked by org' } });
  });

  it('blocked APPROVAL_UNAVAILABLE when no surface can ask', async () => {
    const headless = createKernel({ plugins: [{ id: 'outcomes', module: fixture('outcomes') }] }, { cwd: scratchCwd(), logger: quiet, trustedPolicies: policies });
    await headless.start();
    try {
      expect(await headless.assembleTools({ trigger: 'cron' }).execute('fine', {})).toMatchObject({ outcome: 'blocked', code: 'APPROVAL_UNAVAILABLE' });
    } finally {
      await headless.stop();
    }
  });
});

describe('the kernel lifecycle', () => {
  it('refuses to assemble before start() resolved and after stop(), with typed errors; a call in flight at stop() is cancelled', async () => {
    const kernel = createKernel({ plugins: [{ id: 'outcomes', module: fixture('outcomes') }] }, { cwd: scratchCwd(), logger: quiet });
    expect(() => kernel.assembleTools()).toThrow(expect.objectContaining({ name: 'KernelUsageError', code: 'KERNEL_NOT_STARTED' }));
    await kernel.start();
    const toolSet = kernel.assembleTools();
    const inFlight = toolSet.execute('wait', {});
    await until(() => (kernel.plugins()[0]?.inflight ?? 0) > 0, 'the call to be in flight');
    await kernel.stop();
    expect(await inFlight).toMatchObject({ outcome: 'cancelled', code: 'PLUGIN_STOPPED' });
    expect(() => kernel.assembleTools()).toThrow(expect.objectContaining({ code: 'KERNEL_STOPPED' }));
    await expect(toolSet.execute('fine', {})).rejects.toMatchObject({ code: 'KERNEL_STOPPED' });
  });
});
