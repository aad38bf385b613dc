import { describe, expect, it } from 'vitest';
import { createColors } from '../../cli/format/color.js';
import { callResultJson, formatCallFailure, formatContent } from '../../cli/format/content.js';
import { startProgress } from '../../cli/format/progress.js';
import { formatExplanation } from '../../cli/format/explain.js';
import { toMcpResult } from '../../cli/serve/mcp-result.js';
import { structuredContentFor } from '../../cli/serve/structured.js';
import type { CallResult, ToolSet } from '../../cli/kernel.js';

const plain = createColors(false);
const toolSet = { tools: [{ name: 'read', description: 'r', inputSchema: {}, pluginId: 'fs' }], removed: [] } as unknown as ToolSet;
const blocked: CallResult = {
  outcome: 'blocked', isError: true, code: 'HOOK_BLOCKED', retryable: false, error: { code: 'HOOK_BLOCKED', message: 'no' },
  content: [{ type: 'text', text: 'no' }], details: { status: 'blocked' }, toolName: 'read', toolCallId: 'c1', cause: new Error('live object'),
} as CallResult;

describe('how the doors print a call result', () => {
  it('explains an unavailable tool by its plugin state and last error, without advising to enable it (10.5)', () => {
    const text = formatExplanation({ tool: 'read', present: false, unavailable: true, plugin: { id: 'fs', state: 'failed', lastError: { code: 'PLUGIN_FAILED', message: 'crashed 3 times', at: 'now' } } }, toolSet, 'agent main', plain);
    expect(text).toContain('read is unavailable to agent main: its plugin fs is failed.');
    expect(text).toContain('Last error: PLUGIN_FAILED: crashed 3 times');
    expect(text).not.toMatch(/enable/i);
  });

  it('says when a present tool cannot be called because a required plugin is down (23.4)', () => {
    const callsBlocked = { code: 'REQUIRED_PLUGIN_UNAVAILABLE' as const, reason: 'x', plugins: [{ pluginId: 'audit', state: 'failed', reason: 'exited with code 1' }] };
    const text = formatExplanation({ tool: 'read', present: true, layersPassed: ['profile'], callsBlocked }, toolSet, 'agent main', plain);
    expect(text).toContain('read is available to agent main (plugin fs).');
    expect(text).toContain('But every call is blocked (REQUIRED_PLUGIN_UNAVAILABLE): required plugin "audit" is failed: exited with code 1');
  });

  it('prints the outcome and code on stderr, and --json without the live cause', () => {
    expect(formatCallFailure('read', blocked, plain)).toBe('✗ read blocked (HOOK_BLOCKED)');
    const json = callResultJson('read', blocked);
    expect(json).toMatchObject({ tool: 'read', outcome: 'blocked', code: 'HOOK_BLOCKED', isError: true });
    expect(json).not.toHaveProperty('cause');
  });

  it('shows a plugin’s control characters as escapes in every block and in a progress message, keeping newlines and tabs', () => {
    const evil = 'a\u001b]0;title\u0007\u001b[2J\r\u009b1A\tb\nc';
    expect(formatContent({ type: 'text', text: evil })).toBe('a\\x1b]0;title\\x07\\x1b[2J\\r\\x9b1A\tb\nc');
    expect(formatContent({ type: 'json', json: { evil } })).not.toMatch(/[\u0080-\u009f]/); // JSON.stringify leaves C1 raw
    expect(formatContent({ type: 'image', mimeType: 'image/png\u001b[2J', data: '' })).toBe('[image image/png\\x1b[2J, 0 bytes]');
    let drawn = '';
    // The first frame is drawn at once, from the starting text (a plugin's progress message goes through update, drawn the same way).
    startProgress({ isTTY: true, columns: 200, write: (text: string) => void (drawn += text) } as never, 'step a\u001b]0;title\u0007\u009b2J', 60_000).done();
    expect(drawn).toContain('step a\\x1b]0;title');
    expect(drawn).not.toContain('\u001b]0;title');
    expect(drawn).not.toMatch(/[\u0007\u0080-\u009f]/);
  });

  it('gives MCP no structured content, and no thrown error, for an outputSchema ajv cannot compile', () => {
    const result = { details: { n: 1 } };
    expect(structuredContentFor({ type: 'object', properties: { n: { type: 5 } } }, result)).toEqual({ problem: expect.stringContaining('cannot be compiled') });
    expect(structuredContentFor({ type: 'object', properties: { n: { $ref: 'https://elsewhere.example/s.json' } } }, result).value).toBeUndefined();
    expect(structuredContentFor({ type: 'object', properties: { n: { type: 'number' } } }, result)).toEqual({ value: { n: 1 } });
  });

  it('gives MCP a block as isError with the verdict in _meta (23.3, 10.4)', () => {
    expect(toMcpResult(blocked)).toEqual({
      content: [{ type: 'text', text: 'no' }], isError: true,
      _meta: { 'pincer/outcome': { outcome: 'blocked', code: 'HOOK_BLOCKED', retryable: false, error: { code: 'HOOK_BLOCKED', message: 'no' } } },
    });
    const ok = toMcpResult({ outcome: 'ok', isError: false, retryable: false, content: [{ type: 'text', text: 'fine' }], toolName: 'read', toolCallId: 'c2' });
    expect(ok).toEqual({ content: [{ type: 'text', text: 'fine' }], _meta: { 'pincer/outcome': { outcome: 'ok', code: null, retryable: false } } });
  });
});
