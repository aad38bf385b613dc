import { digestValue } from './hashing.js';

/**
 * Parts of a failing command's output that change from run to run without meaning anything:
 * timestamps, clock times, attempt counters, durations and process ids. Masked, two runs of
 * "the same failure" compare equal (the reference release's rule, 2026.9.6).
 */
const VOLATILE_OUTPUT: readonly RegExp[] = [
  /\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:z|[+-]\d{2}:\d{2})?/giu,
  /\d{1,2}:\d{2}:\d{2}(?:\.\d{1,6})?/gu,
  /\b(?:attempt|retry)\b[\s#:=]*\d+/giu,
  /\b\d+(?:\.\d+)?\s?(?:ns|us|ms|seconds?|minutes?|hours?|s)\b/giu,
  /\b(?:pid|ppid)\b[\s#:=]*\d+/giu,
];

/** A finished `exec` that failed for real: non-zero exit, not a timeout, with output to show for it. */
export function isTerminalExecFailure(details: Record<string, unknown>, output: string): boolean {
  const exitCode = details.exitCode;
  return (details.status === 'completed' || details.status === 'failed')
    && typeof exitCode === 'number' && Number.isFinite(exitCode) && exitCode !== 0
    && details.timedOut !== true && output !== '' && output !== `(Command exited with code ${exitCode})`;
}

/** What identifies a failure across changed commands: status, exit code and the masked output. */
export function execFailureIdentity(details: Record<string, unknown>, output: string): string {
  let shape = output;
  for (const pattern of VOLATILE_OUTPUT) shape = shape.replace(pattern, '#');
  return digestValue({ status: details.status, exitCode: details.exitCode, timedOut: details.timedOut === true, output: shape });
}
