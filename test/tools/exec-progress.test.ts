/**
 * A running command's output as progress: the backend's reports stay few and small whatever the
 * command prints, and the shell's messages, read in order, label the output as the result does.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecProgressValue } from '../../protocol/index.js';
import { OutputReports } from '../../sdk/sandbox/shell/output-reports.js';
import { OutputTranscript } from '../../sdk/sandbox/shell/transcript.js';
import { OutputLabeller, renderOutput } from '../../plugins/shell/src/tools/format-output.js';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('the backend’s output reports', () => {
  let sent: ExecProgressValue[];
  let reports: OutputReports;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    reports = new OutputReports((value) => sent.push(value), { intervalMs: 300, maxBytes: 64 });
  });
  afterEach(() => vi.useRealTimers());

  it('sends at most one report per interval, each with only the output since the last, in arrival order', () => {
    const transcript = new OutputTranscript(1024, reports.listener);
    transcript.push('stdout', b('first\n'));
    transcript.push('stderr', b('warn\n'));
    vi.advanceTimersByTime(299);
    expect(sent).toEqual([]);
    transcript.push('stdout', b('more\n'));
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([{ output: [{ stream: 'stdout', text: 'first\n' }, { stream: 'stderr', text: 'warn\n' }, { stream: 'stdout', text: 'more\n' }] }]);
    transcript.push('stdout', b('second\n'));
    vi.advanceTimersByTime(300);
    expect(sent.at(-1)).toEqual({ output: [{ stream: 'stdout', text: 'second\n' }] });
    vi.advanceTimersByTime(3_000);
    expect(sent).toHaveLength(2); // nothing new, nothing sent
  });

  it('keeps a report to the newest bytes under a flood, whole characters only, and counts what it skipped', () => {
    for (let i = 0; i < 10_000; i += 1) reports.listener([{ stream: 'stdout', text: `line ${i} €\n` }]);
    vi.advanceTimersByTime(300);
    expect(sent).toHaveLength(1);
    const [skipped, tail] = sent[0]!.output;
    expect(skipped).toMatchObject({ stream: 'omitted' });
    expect(tail).toMatchObject({ stream: 'stdout', text: expect.stringMatching(/line 9999 €\n$/) });
    const kept = Buffer.byteLength((tail as { text: string }).text);
    expect(kept).toBeLessThanOrEqual(64);
    expect((tail as { text: string }).text).not.toContain('\uFFFD');
    const total = Array.from({ length: 10_000 }, (_, i) => Buffer.byteLength(`line ${i} €\n`)).reduce((a, n) => a + n, 0);
    expect((skipped as { bytes: number }).bytes + kept).toBe(total);
  });

  it('sends nothing once the command ended: the result that follows carries the rest', () => {
    reports.listener([{ stream: 'stdout', text: 'last words\n' }]);
    reports.close();
    reports.listener([{ stream: 'stdout', text: 'after the end\n' }]);
    vi.advanceTimersByTime(1_000);
    expect(sent).toEqual([]);
  });
});

describe('the shell’s progress messages', () => {
  it('read, in order, exactly as the result labels the same output', () => {
    const segments = [
      { stream: 'stdout', text: 'build ' },
      { stream: 'stdout', text: 'start' },
      { stream: 'stderr', text: 'warning: x\n' },
      { stream: 'stderr', text: 'more\n' },
      { stream: 'stdout', text: 'done\n' },
    ] as const;
    const labeller = new OutputLabeller();
    const messages = [[segments[0]], [segments[1], segments[2]], [segments[3]], [segments[4]]].map((report) => labeller.render(report));
    expect(messages).toEqual(['build ', 'start\n[stderr]\nwarning: x\n', 'more\n', '[stdout]\ndone\n']);
    expect(messages.join('')).toBe(renderOutput([{ stream: 'stdout', text: 'build start' }, { stream: 'stderr', text: 'warning: x\nmore\n' }, { stream: 'stdout', text: 'done\n' }]).text);
  });
});
