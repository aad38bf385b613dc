import type { WorkspaceExecOptions, WorkspaceExecResult } from '../../../protocol/v1/workspace-types.js';
import type { OutputTranscript } from './transcript.js';

/** How a command ended; its output went to a transcript the caller owns. */
export type ExecOutcome = Pick<WorkspaceExecResult, 'exitCode' | 'signal' | 'timedOut' | 'durationMs' | 'strayProcessesKilled' | 'cwd'>;

/**
 * Runs one command of a backend, writing its output into `transcript` as it comes (so a
 * detached run can be read while it runs). Rejects with CANCELLED once `signal` fired and
 * the command's whole process group is dead.
 */
export type TranscriptExecutor = (
  command: string,
  options: WorkspaceExecOptions,
  signal: AbortSignal | undefined,
  transcript: OutputTranscript,
) => Promise<ExecOutcome>;

/** The wire result of an ended command: its outcome and everything its transcript kept. */
export function toExecResult(outcome: ExecOutcome, transcript: OutputTranscript): WorkspaceExecResult {
  transcript.end();
  const { output, stdout, stderr, truncated } = transcript.snapshot();
  return { ...outcome, stdout, stderr, truncated, output };
}
