import { describe, expect, it } from 'vitest';
import { OutputTranscript } from '../../sdk/sandbox/shell/transcript.js';
import { renderOutput } from '../../plugins/shell/src/tools/format-output.js';
import { statusLine } from '../../plugins/shell/src/tools/status.js';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('the output transcript', () => {
  it('keeps stdout and stderr in arrival order, one segment per run of a stream', () => {
    const t = new OutputTranscript(1024);
    t.push('stdout', b('build '));
    t.push('stdout', b('start\n'));
    t.push('stderr', b('warning\n'));
    t.push('stdout', b('done\n'));
    t.end();
    expect(t.snapshot()).toMatchObject({
      output: [{ stream: 'stdout', text: 'build start\n' }, { stream: 'stderr', text: 'warning\n' }, { stream: 'stdout', text: 'done\n' }],
      stdout: 'build start\ndone\n',
      stderr: 'warning\n',
      truncated: false,
      bytes: 25,
    });
  });

  it('keeps the head and the tail of a flood, marks the dropped middle, and stays within the cap', () => {
    const t = new OutputTranscript(1000);
    t.push('stdout', b('FIRST-LINE\n'));
    for (let i = 0; i < 1000; i += 1) t.push('stdout', b(`line ${i}\n`));
    t.push('stderr', b('error: the real cause\n'));
    t.end();
    const snap = t.snapshot();
    expect(snap.truncated).toBe(true);
    expect(snap.output[0]).toMatchObject({ stream: 'stdout', text: expect.stringMatching(/^FIRST-LINE\n/) });
    expect(snap.output.some((s) => s.stream === 'omitted' && s.bytes > 5000)).toBe(true);
    expect(snap.output.at(-1)).toEqual({ stream: 'stderr', text: 'error: the real cause\n' });
    expect(Buffer.byteLength(snap.stdout) + Buffer.byteLength(snap.stderr)).toBeLessThanOrEqual(1000);
    const omitted = snap.output.find((s) => s.stream === 'omitted') as { bytes: number };
    expect(Buffer.byteLength(snap.stdout) + Buffer.byteLength(snap.stderr) + omitted.bytes).toBe(snap.bytes);
  });

  it('never splits a multi-byte character: across chunks, around the other stream, or at the cap', () => {
    const euro = b('€'); // 3 bytes
    const t = new OutputTranscript(64);
    t.push('stdout', euro.subarray(0, 1));
    t.push('stderr', b('e\n'));
    t.push('stdout', euro.subarray(1));
    for (let i = 0; i < 40; i += 1) t.push('stdout', euro); // runs over the cap, head and tail cut mid-character
    t.end();
    const snap = t.snapshot();
    expect(snap.stdout).not.toContain('\uFFFD');
    expect(snap.stdout.startsWith('€')).toBe(true);
    expect(snap.stdout.endsWith('€')).toBe(true);
    expect(snap.stderr).toBe('e\n');
    expect(snap.truncated).toBe(true);
  });

  it('shows a character cut off by the end of the output as U+FFFD only once the command ended', () => {
    const t = new OutputTranscript(64);
    t.push('stdout', b('ok ').subarray(0, 3));
    t.push('stdout', b('€').subarray(0, 2));
    expect(t.snapshot().stdout).toBe('ok '); // still running: the rest may come
    t.end();
    expect(t.snapshot().stdout).toBe('ok \uFFFD');
  });
});

describe('what the model reads', () => {
  it('labels stderr and resumed stdout, and marks the dropped middle in place', () => {
    const rendered = renderOutput([
      { stream: 'stdout', text: 'a\n' },
      { stream: 'omitted', bytes: 2048 },
      { stream: 'stderr', text: 'oops' },
      { stream: 'stdout', text: 'b\n' },
    ]);
    expect(rendered.text).toBe('a\n[... 2.0 KiB of output omitted here; the start and the end are kept ...]\n[stderr]\noops\n[stdout]\nb\n');
    expect(rendered.missingFinalNewline).toBe(false);
  });

  it('makes a missing final newline visible in the status line', () => {
    const end = { exitCode: 0, signal: null, timedOut: false, timeoutMs: 1000, durationMs: 50, truncated: false };
    expect(statusLine(end, renderOutput([{ stream: 'stdout', text: 'abc' }]))).toBe('[exit code 0; no newline at end of output; 0.1 s]');
    expect(statusLine(end, renderOutput([{ stream: 'stdout', text: 'abc\n' }]))).toBe('[exit code 0; 0.1 s]');
  });

  it('reports a timeout in the seconds it was given, not rounded away', () => {
    const end = { exitCode: null, signal: 'SIGKILL', timedOut: true, timeoutMs: 300, durationMs: 320, truncated: false };
    expect(statusLine(end, renderOutput([]))).toMatch(/^\[timed out after 0.3 s;/);
  });
});
