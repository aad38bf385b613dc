import { describe, expect, it } from 'vitest';
import {
  coerceToolParams, formatUnknownToolMessage, normalizeToolResult, redactExecParamsForLog, redactSecrets, redactSecretsInText,
  toToolDefinition, toolErrorCode, toolFailureLogLine, unknownToolResult,
} from '../../kernel/adapter/index.js';
import { createToolGate, isCallPathError } from '../../kernel/gate/index.js';
import type { ToolExplanation } from '../../kernel/policy/types.js';
import { ctx, hook, recordingTool } from './helpers.js';
import { createHash } from 'node:crypto';

const noRequired = { type: 'object', properties: { q: { type: 'string' } } };
const withRequired = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };

describe('param coercion', () => {
  it('passes objects, parses JSON strings, and turns no arguments into {} when nothing is required', () => {
    expect(coerceToolParams('t', noRequired, { q: 'x' })).toEqual({ ok: true, params: { q: 'x' } });
    expect(coerceToolParams('t', noRequired, ' {"q":"x"} ')).toEqual({ ok: true, params: { q: 'x' } });
    expect(coerceToolParams('t', noRequired, null)).toEqual({ ok: true, params: {} });
    expect(coerceToolParams('t', noRequired, undefined)).toEqual({ ok: true, params: {} });
    expect(coerceToolParams('t', noRequired, '  ')).toEqual({ ok: true, params: {} });
  });

  it('refuses no arguments when the schema requires fields, naming them', () => {
    expect(coerceToolParams('search', withRequired, null)).toEqual({ ok: false, message: 'Tool "search" requires arguments (q) but the call had none.' });
    const nested = { anyOf: [{ type: 'object', required: ['a'] }] };
    expect(coerceToolParams('t', nested, undefined).ok).toBe(false);
  });

  it('refuses arrays, numbers, invalid JSON and JSON that is not an object', () => {
    for (const raw of [[1], 3, 'not json', '[1,2]', '"str"', true]) {
      const coerced = coerceToolParams('t', noRequired, raw);
      expect(coerced.ok).toBe(false);
    }
  });
});

describe('result normalization', () => {
  it('keeps results that have a content array', () => {
    const r = { content: [{ type: 'text' as const, text: 'x' }] };
    expect(normalizeToolResult('t', r)).toBe(r);
  });

  it('wraps objects without content as JSON text of their details (or themselves) and says so', () => {
    const lines: string[] = [];
    expect(normalizeToolResult('t', { details: { a: 1 } }, (l) => lines.push(l))).toEqual({ content: [{ type: 'text', text: '{\n  "a": 1\n}' }], details: { a: 1 } });
    expect(normalizeToolResult('t', { a: 2 }).details).toEqual({ a: 2 });
    expect(lines).toEqual(['tools: t returned non-standard result (missing content[]); coercing']);
  });

  it('turns nothing into {status:"ok", tool} and primitives into text', () => {
    expect(normalizeToolResult('t', undefined).details).toEqual({ status: 'ok', tool: 't' });
    expect(normalizeToolResult('t', { details: null }).details).toEqual({ status: 'ok', tool: 't' });
    expect(normalizeToolResult('t', 'plain')).toEqual({ content: [{ type: 'text', text: 'plain' }] });
  });
});

describe('exec failure-log redaction', () => {
  it('replaces commands with type, length and a 16-hex sha256 prefix, and env values with placeholders under sorted keys', () => {
    const command = 'TOKEN=hunter2 ./deploy';
    const out = redactExecParamsForLog({ command, env: { Z: 'secret', A: 'also' }, workdir: '/srv' }) as Record<string, unknown>;
    expect(out.command).toEqual({
      omitted: true, reason: 'exec command may contain credentials', type: 'string', chars: command.length,
      sha256: createHash('sha256').update(command).digest('hex').slice(0, 16),
    });
    expect(out.env).toEqual({ A: '[omitted exec env value]', Z: '[omitted exec env value]' });
    expect(Object.keys(out.env as object)).toEqual(['A', 'Z']);
    expect(out.workdir).toBe('/srv');
    expect(JSON.stringify(out)).not.toContain('hunter2');
  });

  it('treats a JSON string as its object, summarizes non-objects, and replaces a non-object env wholesale', () => {
    expect(redactExecParamsForLog('{"cmd":"ls"}')).toMatchObject({ cmd: { omitted: true } });
    expect(redactExecParamsForLog('rm -rf /')).toMatchObject({ omitted: true, reason: 'exec params may contain command credentials', type: 'string' });
    expect(redactExecParamsForLog([1])).toMatchObject({ type: 'array' });
    expect(redactExecParamsForLog({ env: 'A=1' })).toEqual({ env: '[omitted exec env]' });
  });

  it('9.12: redacts by the canonical name, so a plugin tool called "bash" or " Exec " is exec', async () => {
    for (const name of ['bash', ' Exec ']) {
      const errors: string[] = [];
      const tool = recordingTool(name, { execute: async () => { throw new Error('exit 1'); } });
      await toToolDefinition(tool, { warn: () => undefined, error: (m) => errors.push(m) }).execute({ command: 'curl -u admin:hunter2 x' }, ctx());
      expect(errors[0]).not.toContain('hunter2');
      expect(errors[0]).toContain('exec command may contain credentials');
    }
  });

  it('9.12: masks environment-style secrets, and not words that merely contain "token"', () => {
    const text = redactSecretsInText('OPENAI_API_KEY=sk1 GITHUB_TOKEN: "ghx" AWS_SECRET_ACCESS_KEY=abc DB_PASSWORD=pw api_key=k max_tokens=5 tokenizer=bpe');
    expect(text).toBe('OPENAI_API_KEY=[redacted] GITHUB_TOKEN: [redacted] AWS_SECRET_ACCESS_KEY=[redacted] DB_PASSWORD=[redacted] api_key=[redacted] max_tokens=5 tokenizer=bpe');
    expect(redactSecrets({ OPENAI_API_KEY: 'a', client_secret: 'b', 'x-api-key': 'c', max_tokens: 5 })).toEqual({ OPENAI_API_KEY: '[redacted]', client_secret: '[redacted]', 'x-api-key': '[redacted]', max_tokens: 5 });
  });

  it('18.8: a failure log shows the size and digest of content-like fields, never the content', () => {
    const line = toolFailureLogLine('write', 'disk full', { path: 'notes.md', content: 'my diary' }, undefined);
    expect(line).not.toContain('my diary');
    expect(line).toContain('"path":"notes.md"');
    expect(line).toMatch(/"content":\{"omitted":true,"reason":"content is not logged","type":"string","chars":8,"sha256":"[0-9a-f]{16}"\}/);
    const long = toolFailureLogLine('custom', 'x', { blob: 'y'.repeat(500) });
    expect(long).not.toContain('y'.repeat(300));
  });

  it('logs a failing exec call without its command and returns an error result to the model', async () => {
    const errors: string[] = [];
    const exec = recordingTool('exec', { execute: async () => { throw new Error('exit 1'); } });
    const def = toToolDefinition(exec, { warn: () => undefined, error: (m) => errors.push(m) });
    const result = await def.execute('{"command":"curl -u admin:hunter2 x"}', ctx());
    expect(result).toMatchObject({ isError: true, details: { status: 'error', tool: 'exec', error: { code: 'TOOL_FAILED', message: 'exit 1' } } });
    expect(errors[0]).toMatch(/^\[tools\] exec failed: exit 1 raw_params=/);
    expect(errors[0]).not.toContain('hunter2');
  });
});

describe('tool definitions', () => {
  it('coerces before the gate and normalizes after the tool', async () => {
    const tool = recordingTool('read', { execute: async () => ({ weird: true }) as never });
    const def = toToolDefinition(createToolGate({ hooks: [hook('a', undefined)] }).wrap(tool));
    const result = await def.execute('{"path":"a"}', ctx());
    expect(result.details).toEqual({ weird: true });
  });

  it('returns an error result for bad arguments without calling the gate or the tool', async () => {
    const tool = recordingTool();
    const result = await toToolDefinition({ ...tool, parameters: withRequired }).execute(null, ctx());
    expect(result.isError).toBe(true);
    expect(tool.calls).toEqual([]);
  });

  it('rethrows call-path failures and aborts instead of hiding them in a result', async () => {
    const gated = createToolGate({ hooks: [hook('bad', 42)] }).wrap(recordingTool());
    await expect(toToolDefinition(gated).execute({}, ctx())).rejects.toSatisfy(isCallPathError);
    const controller = new AbortController();
    controller.abort();
    const aborting = recordingTool('read', { execute: async () => { throw Object.assign(new Error('aborted'), { name: 'AbortError' }); } });
    await expect(toToolDefinition(aborting).execute({}, { toolCallId: 'x', signal: controller.signal })).rejects.toThrow('aborted');
  });

  it('9.13: an AbortError the tool throws while the caller did not abort is a tool error with a log line', async () => {
    const errors: string[] = [];
    const aborting = recordingTool('read', { execute: async () => { throw Object.assign(new Error('socket aborted'), { name: 'AbortError' }); } });
    const result = await toToolDefinition(aborting, { warn: () => undefined, error: (m) => errors.push(m) }).execute({}, { toolCallId: 'x', signal: new AbortController().signal });
    expect(result).toMatchObject({ isError: true, details: { error: { code: 'TOOL_FAILED', message: 'socket aborted' } } });
    expect(errors[0]).toMatch(/^\[tools\] read failed: socket aborted/);
  });
});

describe('unknown tool explanations', () => {
  const denied: ToolExplanation = {
    tool: 'exec', present: false,
    removal: { tool: 'exec', layer: 'agent', label: 'agents.main.tools.allow', ruleKind: 'deny', matchedRules: ['group:runtime'], configKey: 'agents.main.tools.deny' },
  };
  const notAllowed: ToolExplanation = {
    tool: 'browser', present: false,
    removal: { tool: 'browser', layer: 'profile', label: 'tools.profile (coding)', ruleKind: 'allow', matchedRules: ['read', 'write'], configKey: 'tools.alsoAllow' },
  };

  it('names the layer, the rule, the matched entries and the config key that holds the rule', () => {
    const text = formatUnknownToolMessage('exec', denied);
    expect(text).toContain('Tool "exec" is not available in this run');
    expect(text).toContain('the agent policy layer denies it');
    expect(text).toContain('agents.main.tools.deny matched "group:runtime"');
    // 9.1: the model is never coached to edit its own policy; `pincer explain` tells the operator.
    expect(text).not.toMatch(/\bremove\b|\badd\b|To change it/);
    expect(text).toContain('Only an operator can change the tool policy');
  });

  it('names the allow list a tool was not admitted by, without saying how to widen it', () => {
    const text = formatUnknownToolMessage('browser', notAllowed);
    expect(text).toContain('the profile policy layer does not allow it (tools.alsoAllow allows only "read", "write")');
    expect(text).not.toMatch(/\badd\b/);
  });

  it('names the real key of a group\'s sender rule, not the label of the global one (23.6)', () => {
    const sender: ToolExplanation = {
      tool: 'exec', present: false,
      removal: { tool: 'exec', layer: 'sender', label: 'tools.toolsBySender', ruleKind: 'deny', matchedRules: ['exec'], configKey: 'groups.team.toolsBySender.id:u1.deny' },
    };
    const text = formatUnknownToolMessage('exec', sender);
    expect(text).toContain('groups.team.toolsBySender.id:u1.deny');
    expect(text).not.toContain('tools.toolsBySender ');
  });

  it('says the same for a core tool no plugin provides as for a name the policy would allow: no plugin provides it', () => {
    const core = formatUnknownToolMessage('web_search', { tool: 'web_search', present: false, unknown: true, coreTool: true });
    expect(core).toBe('Tool "web_search" is not available in this run: no enabled plugin provides it. Continue without it.');
  });

  it('explains names no layer knows, and survives an explain function that throws', () => {
    expect(unknownToolResult('nope', () => ({ tool: 'nope', present: false, unknown: true })).content[0]).toMatchObject({ text: expect.stringContaining('no tool with this name') });
    const result = unknownToolResult('x', () => { throw new Error('pipeline not ready'); });
    expect(result).toMatchObject({ isError: true, details: { error: { code: 'UNKNOWN_TOOL' } } });
  });

  it('carries the removal audit in details for the host', () => {
    expect(unknownToolResult('exec', () => denied).details).toMatchObject({ removal: { configKey: 'agents.main.tools.deny' } });
  });
});

describe('tool error codes', () => {
  it('keeps a tool\'s own code, and never lets it pass for a kernel verdict, whatever its case', () => {
    expect(toolErrorCode('PATH_OUTSIDE_MOUNT')).toBe('PATH_OUTSIDE_MOUNT');
    for (const forged of ['APPROVAL_DENIED', 'approval_denied', 'Loop_Detected', 'TOOL_REMOVED']) expect(toolErrorCode(forged)).toBe('TOOL_ERROR');
    for (const junk of [undefined, 42, '', 'has spaces', 'x'.repeat(100)]) expect(toolErrorCode(junk)).toBe('TOOL_ERROR');
  });
});
