import type { ExecRunInfo } from '../../../../protocol/index.js';
import { formatDuration } from '../tools/format-output.js';
import type { CommandEnd } from '../tools/status.js';

/** Wall-clock time the run has taken so far (or took). */
export function runtimeMs(run: ExecRunInfo): number {
  return (run.endedAt ?? Date.now()) - run.startedAt;
}

/** How an ended run ended, in the terms exec results use. */
export function runEnd(run: ExecRunInfo): CommandEnd {
  return {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.status === 'timed_out',
    killedOnRequest: run.status === 'killed',
    timeoutMs: run.timeoutMs,
    durationMs: runtimeMs(run),
    truncated: run.truncated,
    strayProcessesKilled: run.strayProcessesKilled,
  };
}

/** The status words a model reads: `completed` is exit code 0, `failed` anything else that ended on its own. */
export function runStatus(run: ExecRunInfo): string {
  if (run.status === 'exited') return run.exitCode === 0 ? 'completed' : 'failed';
  return run.status === 'timed_out' ? 'timed out' : run.status;
}

/** Structured facts for the host (`details`). */
export function runDetails(run: ExecRunInfo): Record<string, unknown> {
  const { runId, instance: _instance, ...rest } = run;
  return { sessionId: runId, ...rest, status: runStatus(run), runtimeMs: runtimeMs(run) };
}

/** One line per run: id, status, time, command. */
export function runSummary(run: ExecRunInfo): string {
  const how = run.status === 'exited' ? ` (exit code ${run.exitCode})` : run.error ? ` (${run.error.code}: ${run.error.message})` : '';
  return `${run.runId}  ${runStatus(run)}${how}  ${formatDuration(runtimeMs(run))} s  ${run.command}`;
}
