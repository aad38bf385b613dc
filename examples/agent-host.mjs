// An agent host on the embedding API (docs/embedding.md): a scripted model speaking the OpenAI
// and the Anthropic tool formats, host policies with operator approvals, a cancelled call, a
// plugin killed mid-call and restarted, diagnostics. Every call's outcome is asserted.
//
//   node examples/agent-host.mjs        (works in a temporary workspace; exits 1 on a mismatch)
//
// The tool lists come from the kernel's provider adapters (toOpenAITools / toAnthropicTools): the
// schemas already normalized for the provider, names and descriptions checked against its limits.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, defaultConfig, toAnthropicTools, toOpenAITools } from 'pincer';

const workspace = mkdtempSync(join(tmpdir(), 'pincer-agent-host-'));
writeFileSync(join(workspace, 'README.md'), '# demo\nhello from the workspace\n');

// ── The host: its policies, its approval UI, its config ─────────────────────────────────────
const approvals = [];
const approvalSurface = {
  // A real host asks a person; this one answers by path: approve, deny, or never answer.
  async request(request) {
    approvals.push(request);
    return { 'notes.md': 'allow-once', 'secret.txt': 'deny' }[request.params.path] ?? 'timeout';
  },
};
const trustedPolicies = [
  { id: 'host.writes-need-approval', evaluate: (event) => (event.toolName === 'write' ? { requireApproval: { title: `Write ${event.params.path}?`, description: 'The agent wants to write a file.' } } : undefined) },
  { id: 'host.no-recursive-delete', evaluate: (event) => (event.toolName === 'exec' && /rm\s+-rf/.test(String(event.params.command)) ? { block: true, blockReason: 'Recursive deletes are not allowed here.' } : undefined) },
];
const config = { ...defaultConfig({ cwd: workspace }), tools: { profile: 'coding', deny: ['apply_patch'] } };
const kernel = createKernel(config, { approvalSurface, trustedPolicies, logger: () => undefined });

// ── Provider formats: tools out, calls in, results back ─────────────────────────────────────
const textOf = (result) => result.content.map((block) => (block.type === 'text' ? block.text : JSON.stringify(block))).join('\n');
const providers = {
  // OpenAI sends arguments as a JSON string; the kernel parses it (or says it is not JSON).
  openai: {
    tools: (tools) => toOpenAITools(tools),
    toolName: (tool) => tool.function.name,
    calls: (message) => message.tool_calls.map((c) => ({ id: c.id, name: c.function.name, args: c.function.arguments })),
    reply: (call, result) => ({ role: 'tool', tool_call_id: call.id, content: textOf(result) }),
  },
  // Anthropic sends an object, and wants is_error on the result: every outcome but `ok` is one.
  anthropic: {
    tools: (tools) => toAnthropicTools(tools),
    toolName: (tool) => tool.name,
    calls: (message) => message.content.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, args: b.input })),
    reply: (call, result) => ({ type: 'tool_result', tool_use_id: call.id, content: textOf(result), is_error: result.isError }),
  },
};

// ── The scripted model: one assistant message per turn, in its provider's format ───────────
const openai = (id, name, args) => ({ role: 'assistant', tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] });
const anthropic = (id, name, input) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name, input }] });
const script = [
  { provider: 'openai', message: openai('c1', 'read', '{"path":"README.md"}'), expect: ['ok'] },
  { provider: 'openai', message: openai('c2', 'read', '{"path":"missing.txt"}'), expect: ['tool_error', 'NOT_FOUND'] },
  { provider: 'openai', message: openai('c3', 'read', '{"path": README'), expect: ['tool_error', 'INVALID_PARAMS'] },
  { provider: 'openai', message: openai('c4', 'apply_patch', '{"input":"*** Begin Patch"}'), expect: ['denied', 'TOOL_REMOVED'] },
  { provider: 'openai', message: openai('c5', 'frobnicate', '{}'), expect: ['unavailable', 'UNKNOWN_TOOL'] },
  { provider: 'openai', message: openai('c6', 'exec', '{"command":"rm -rf build"}'), expect: ['blocked', 'POLICY_BLOCKED'] },
  { provider: 'anthropic', message: anthropic('t1', 'write', { path: 'notes.md', content: 'approved\n' }), expect: ['ok'] },
  { provider: 'anthropic', message: anthropic('t2', 'write', { path: 'secret.txt', content: 'x' }), expect: ['denied', 'APPROVAL_DENIED'] },
  { provider: 'anthropic', message: anthropic('t3', 'write', { path: 'draft.md', content: 'x' }), expect: ['timed_out', 'APPROVAL_TIMED_OUT'] },
  { provider: 'anthropic', message: anthropic('t4', 'exec', { command: 'sleep 30' }), expect: ['cancelled', 'CANCELLED'], then: 'cancel' },
  { provider: 'anthropic', message: anthropic('t5', 'exec', { command: 'sleep 30' }), expect: ['tool_error', 'PLUGIN_CRASHED'], then: 'kill-plugin' },
  { provider: 'anthropic', message: anthropic('t6', 'exec', { command: 'echo back again' }), expect: ['ok'], before: 'await-restart' },
];

// ── What the host does while a call runs: the user presses stop, or a plugin dies ──────────
async function until(condition, what) {
  for (const deadline = Date.now() + 30_000; !condition(); await new Promise((r) => setTimeout(r, 25))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}
const plugin = (id) => kernel.plugins().find((p) => p.id === id);
async function whileRunning(action, controller) {
  await until(() => (plugin('shell')?.inflight ?? 0) > 0, 'the command to start');
  if (action === 'cancel') controller.abort(new Error('the user pressed stop'));
  if (action === 'kill-plugin') process.kill(plugin('shell').pid, 'SIGKILL');
}

// ── The loop ─────────────────────────────────────────────────────────────────────────────────
const events = [];
kernel.diagnostics.on('*', (event) => events.push(event));
await kernel.start();
const runId = 'run-demo-1';
const transcript = [];
try {
  for (const turn of script) {
    if (turn.before === 'await-restart') await until(() => plugin('shell')?.state === 'ready', 'the shell plugin to restart');
    // One assembly per turn (cheap, in memory); the run id keeps loop history and approvals across turns.
    const toolSet = kernel.assembleTools({ agentId: 'main', provider: turn.provider, runId, trigger: 'user' });
    const provider = providers[turn.provider];
    // What the model would be sent: every tool of the run, in the provider's shape.
    assert.deepEqual(provider.tools(toolSet.tools).map(provider.toolName), toolSet.tools.map((t) => t.name));
    for (const call of provider.calls(turn.message)) {
      const controller = new AbortController();
      const running = toolSet.execute(call.name, call.args, { toolCallId: call.id, signal: controller.signal });
      if (turn.then) await whileRunning(turn.then, controller);
      const result = await running;
      const reply = provider.reply(call, result);
      transcript.push(`${turn.provider.padEnd(9)} ${call.name.padEnd(11)} → ${result.outcome}${result.code ? ` ${result.code}` : ''}${result.retryable ? ' (retryable)' : ''}`);
      assert.deepEqual([result.outcome, ...(result.code ? [result.code] : [])], turn.expect, `${call.id} ${call.name}: ${JSON.stringify(result.error ?? result.content)}`);
      assert.equal(result.isError, turn.expect[0] !== 'ok');
      if (turn.provider === 'anthropic') assert.equal(reply.is_error, result.isError);
      if (result.outcome === 'cancelled') assert.equal(result.cause.message, 'the user pressed stop');
      if (result.code === 'PLUGIN_CRASHED') assert.equal(result.retryable, true);
    }
  }
  assert.deepEqual(approvals.map((a) => [a.params.path, a.pluginId]), [['notes.md', 'host.writes-need-approval'], ['secret.txt', 'host.writes-need-approval'], ['draft.md', 'host.writes-need-approval']]);
  assert.ok(events.length > 0 && events.every((event) => event.runId === runId), 'every diagnostics event carries the run id');
  console.log(transcript.join('\n'));
  console.log(`ok: ${script.length} calls, ${events.length} diagnostics events, all outcomes as expected`);
} finally {
  await kernel.stop();
  rmSync(workspace, { recursive: true, force: true });
}
