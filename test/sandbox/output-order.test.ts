import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecOutputSegment } from '../../protocol/v1/workspace-types.js';
import { LocalWorkspace } from '../../plugins/sandbox-local/src/local-workspace.js';
import { OutputCapture, PID_MARKER, STRAY_MARKER, strayMarkerStart } from '../../sdk/sandbox/shell/capture.js';
import { OutputTranscript } from '../../sdk/sandbox/shell/transcript.js';
import { INTERLEAVED, mergeSegments } from './workspace-contract.js';

describe('the local backend, the reference the shell-backed ones match', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pincer-order-'));
  const ws = new LocalWorkspace({ workspaceDir: dir, killGraceMs: 200 });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const c of INTERLEAVED) {
    it(`gives the expected output for ${c.name}`, async () => {
      const heard: ExecOutputSegment[] = [];
      const r = await ws.exec(c.command, {}, undefined, (pieces) => heard.push(...pieces));
      expect(r.output).toEqual(c.output);
      expect(r.strayProcessesKilled === true).toBe(c.strayProcessesKilled === true);
      expect(mergeSegments(heard)).toEqual(c.output);
    });
  }
});

/** A capture as the exec wrapper's output reaches it, into a transcript that records what it heard. */
function wrapped() {
  const heard: ExecOutputSegment[] = [];
  const capture = new OutputCapture(1 << 20, true, new OutputTranscript(1 << 20, (pieces) => heard.push(...pieces)));
  capture.push('stderr', Buffer.from(`${PID_MARKER}4242\n`));
  const push = (stream: 'stdout' | 'stderr', text: string) => capture.push(stream, Buffer.from(text, 'latin1'));
  return { capture, push, heard: () => mergeSegments(heard) };
}

describe('the exec wrapper capture holds back only what could be its stray marker', () => {
  it('passes a stderr line on at once, before the stdout that follows it', () => {
    const { push, heard } = wrapped();
    push('stdout', 'first\n');
    push('stderr', 'warn\n');
    push('stdout', 'second\n');
    expect(heard()).toEqual([{ stream: 'stdout', text: 'first\n' }, { stream: 'stderr', text: 'warn\n' }, { stream: 'stdout', text: 'second\n' }]);
  });

  it('recognizes the marker split across three chunks, and none of it reaches the output', () => {
    const { capture, push, heard } = wrapped();
    push('stderr', 'warn\n__PINC');
    push('stderr', 'ER_STR');
    expect(heard()).toEqual([{ stream: 'stderr', text: 'warn\n' }]);
    push('stderr', 'AY__\n');
    capture.finish();
    expect(capture.strayProcessesKilled).toBe(true);
    expect(heard()).toEqual([{ stream: 'stderr', text: 'warn\n' }]);
  });

  it('releases a held start of the marker as soon as the next stderr shows it is not the marker', () => {
    const { capture, push, heard } = wrapped();
    push('stderr', 'x__PIN');
    expect(heard()).toEqual([{ stream: 'stderr', text: 'x' }]);
    push('stderr', 'G\n');
    expect(heard()).toEqual([{ stream: 'stderr', text: 'x__PING\n' }]);
    capture.finish();
    expect(capture.strayProcessesKilled).toBe(false);
  });

  it('releases a held start of the marker before the stdout that follows it', () => {
    const { push, heard } = wrapped();
    push('stderr', 'progress__PINCER');
    push('stdout', 'out\n');
    expect(heard()).toEqual([{ stream: 'stderr', text: 'progress__PINCER' }, { stream: 'stdout', text: 'out\n' }]);
  });

  it('keeps a whole marker held through stdout and drops it at the end', () => {
    const { capture, push, heard } = wrapped();
    push('stderr', `warn\n${STRAY_MARKER}`);
    push('stdout', 'late\n');
    capture.finish();
    expect(capture.strayProcessesKilled).toBe(true);
    expect(heard()).toEqual([{ stream: 'stderr', text: 'warn\n' }, { stream: 'stdout', text: 'late\n' }]);
  });

  it('shows a start of the marker that ends the output as output, with no stray reported', () => {
    const { capture, push, heard } = wrapped();
    push('stderr', 'ends in __PINCER_STRAY__');
    capture.finish();
    expect(capture.strayProcessesKilled).toBe(false);
    expect(heard()).toEqual([{ stream: 'stderr', text: 'ends in __PINCER_STRAY__' }]);
  });

  it('measures the longest end that starts the marker, overlaps included', () => {
    expect(strayMarkerStart(Buffer.from('warn\n'))).toBe(0);
    expect(strayMarkerStart(Buffer.from('a_'))).toBe(1);
    expect(strayMarkerStart(Buffer.from('___'))).toBe(2);
    expect(strayMarkerStart(Buffer.from(`x${STRAY_MARKER}`))).toBe(STRAY_MARKER.length);
    expect(strayMarkerStart(Buffer.from(`${STRAY_MARKER}x`))).toBe(0);
  });
});
