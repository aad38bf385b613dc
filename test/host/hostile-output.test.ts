import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { escapeForTerminal, type HostLogRecord, type PluginHost } from '../../kernel/host/index.js';
import { LineSplitter } from '../../kernel/host/line-splitter.js';
import { PluginLogSink } from '../../kernel/host/plugin-log.js';
import { ROOT, fixture, testHost, waitFor } from './helpers.js';

// No C0/C1 control character, no bidi override or line separator may reach a log record.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('escapeForTerminal', () => {
  it('makes every control character, bidi override and line separator visible', () => {
    expect(escapeForTerminal('a\u001b[2Jb\nc\rd\te\u0007\u009b\u202e\u2028')).toBe('a\\x1b[2Jb\\nc\\rd\\te\\x07\\x9b\\u202e\\u2028');
    expect(escapeForTerminal('one\ntwo\tthree\r\u001b', { keepNewlines: true })).toBe('one\ntwo\tthree\\r\\x1b');
    expect(escapeForTerminal('héllo wörld ✓')).toBe('héllo wörld ✓');
  });

  it('cuts long text before escaping, saying how much was cut', () => {
    expect(escapeForTerminal('x'.repeat(10), { maxChars: 4 })).toBe('xxxx… (6 more characters)');
  });
});

describe('the line splitter', () => {
  const split = (chunks: string[], max: number) => {
    const lines: Array<[string, boolean]> = [];
    const s = new LineSplitter(max, (line, truncated) => lines.push([line, truncated]));
    for (const c of chunks) s.push(Buffer.from(c));
    s.end();
    return lines;
  };

  it('joins lines across chunks, drops \\r before \\n, and keeps a last line without a newline', () => {
    expect(split(['ab', 'c\r\nd', 'e\nf'], 100)).toEqual([['abc', false], ['de', false], ['f', false]]);
  });

  it('emits the head of an over-long line at once and skips the rest up to the next newline', () => {
    expect(split(['0123456789', 'abcdef', 'gh\nnext\n'], 4)).toEqual([['0123', true], ['next', false]]);
  });
});

describe('a plugin log sink', () => {
  it('rate-limits a flood, then reports how many records it dropped', async () => {
    const records: HostLogRecord[] = [];
    let now = 0;
    const sink = new PluginLogSink('p', (r) => void records.push(r), { maxLineBytes: 100, recordsPerSecond: 10, burst: 5 }, () => now);
    for (let i = 0; i < 50; i++) sink.write('info', `r${i}`);
    expect(records.map((r) => r.message)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    now = 1_000; // ten more tokens
    for (let i = 0; i < 50; i++) sink.write('info', `s${i}`);
    expect(records).toHaveLength(10);
    await waitFor(() => records.some((r) => /dropped \d+ log records over the rate limit of 10\/s/.test(r.message)), 3_000, 'drop report');
  });

  it('survives a logger that throws', () => {
    const sink = new PluginLogSink('p', () => {
      throw new Error('broken logger');
    });
    expect(() => sink.write('error', 'x')).not.toThrow();
  });
});

/** Runs a kernel process with the flooding plugin and another one; reports its peak memory and whether it still serves. */
function floodInKernelProcess(calls: Array<[string, Record<string, unknown>]>): Promise<Record<string, any>> {
  const hostModule = pathToFileURL(path.join(ROOT, 'dist/kernel/host/index.js')).href;
  const script = `
    import { readFileSync, mkdtempSync } from 'node:fs';
    import { tmpdir } from 'node:os';
    import path from 'node:path';
    const { createPluginHost } = await import(${JSON.stringify(hostModule)});
    const peakMb = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
    let records = 0, longest = 0, sawAfter = false;
    const host = createPluginHost({
      stateDir: mkdtempSync(path.join(tmpdir(), 'pincer-flood-')),
      logger: (r) => { if (r.source === 'plugin:flood') { records += 1; longest = Math.max(longest, r.message.length); sawAfter ||= r.message === 'after the long line'; } },
      plugins: [
        { id: 'flood', module: ${JSON.stringify(fixture('floods-its-output'))}, timeouts: { callMs: 600000 } },
        { id: 'plain', module: ${JSON.stringify(fixture('plain'))} },
      ],
    });
    await host.start();
    await host.invokeTool('plain', 'echo', { warm: 1 });
    const before = peakMb();
    for (const [tool, args] of ${JSON.stringify(calls)}) await host.invokeTool('flood', tool, args);
    await new Promise((r) => setTimeout(r, 500)); // let the last lines arrive
    const other = (await host.invokeTool('plain', 'echo', { still: 'here' })).content[0].text;
    console.log(JSON.stringify({ before, after: peakMb(), records, longest, sawAfter, other, flood: host.pluginStatus('flood').state }));
    await host.stop();`;
  const kernel = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    kernel.stdout.on('data', (d) => (out += d));
    kernel.stderr.on('data', (d) => (err += d));
    kernel.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`kernel exited with ${code}: ${err.slice(-2_000)}`))));
  });
}

describe('a plugin flooding its output', () => {
  let current: PluginHost | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });

  it('cannot take the kernel down or its memory up with a 300 MB line and 700 MB without a newline', async () => {
    const report = await floodInKernelProcess([['long_line', { mb: 300 }], ['no_newline', { mb: 700 }]]);
    expect(report.other).toBe('{"still":"here"}');
    expect(report.flood).toBe('ready');
    expect(report.after - report.before).toBeLessThan(100); // MB of peak RSS growth
    // Each giant line became one record of at most the cap (8 KiB) plus a short note, and the
    // line after the 300 MB one came through whole.
    expect(report.longest).toBeLessThan(8 * 1024 + 100);
    expect(report.sawAfter).toBe(true);
    expect(report.records).toBe(3);
  }, 240_000);

  it('keeps each record one escaped line that cannot pose as another plugin', async () => {
    const { host, logs } = testHost([{ id: 'flood', module: fixture('floods-its-output') }]);
    current = host;
    await host.invokeTool('flood', 'forge', {});
    await waitFor(() => logs.some((l) => l.message.includes('forged too')), 5_000, 'stderr line');
    const mine = logs.filter((l) => l.source === 'plugin:flood');
    for (const record of mine) expect(record.message).not.toMatch(CONTROL);
    expect(mine.find((l) => l.message.startsWith('benign'))!.message).toBe('benign\\nerror [plugin:fs] forged line\\x1b]0;pwned\\x07\\x1b[2J');
    expect(mine.find((l) => l.message.startsWith('stderr'))!.message).toBe('stderr \\x1b[2Kcleared\\r[plugin:fs] error: forged too\\x9b31m\\u202eevil');
    expect(JSON.stringify(mine.find((l) => l.message === 'data')!.data)).toBe('{"text":"x\\\\x1b[31mred","deep":{"deeper":{"deepest":{"gone":"{…}"}}}}');
    expect(logs.every((l) => l.source === 'plugin:flood')).toBe(true);
  });

  it('rate-limits a flood of lines and records per plugin, and says how many it dropped', async () => {
    const { host, logs } = testHost([{ id: 'flood', module: fixture('floods-its-output') }, { id: 'plain', module: fixture('plain') }]);
    current = host;
    await host.invokeTool('flood', 'many_lines', { count: 20_000 });
    await waitFor(() => logs.some((l) => /dropped \d+ log records/.test(l.message)), 10_000, 'drop report');
    expect(logs.filter((l) => l.source === 'plugin:flood').length).toBeLessThan(5_000);
    expect((await host.invokeTool('plain', 'echo', { a: 1 })).content[0]).toEqual({ type: 'text', text: '{"a":1}' });
  });
});
