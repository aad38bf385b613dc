import { formatDuration, formatSeconds, type RenderedOutput } from './format-output.js';

/** How a command ended, as exec results and background runs both know it. */
export interface CommandEnd {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  timeoutMs: number;
  durationMs: number;
  truncated: boolean;
  strayProcessesKilled?: boolean;
  /** A background run stopped with `process kill`. */
  killedOnRequest?: boolean;
}

/** A classified failure: a code and a hint added to the output, never instead of it. */
export interface Classification {
  code: string;
  message: string;
  hint: string;
}

const EXIT_COMMAND_NOT_FOUND = 127;
const EXIT_NOT_EXECUTABLE = 126;

export function classify(end: CommandEnd): Classification | undefined {
  if (end.timedOut) {
    return {
      code: 'EXEC_TIMEOUT',
      message: `The command timed out after ${formatSeconds(end.timeoutMs)} s and was killed with its child processes`,
      hint: 'Raise timeout (at most 7200 s), or run it with background: true and check it with the process tool.',
    };
  }
  if (end.exitCode === EXIT_COMMAND_NOT_FOUND) {
    return {
      code: 'EXEC_NOT_FOUND',
      message: 'Exit code 127: the shell did not find a command',
      hint: 'Exit code 127 usually means a command was not found: check its spelling, or whether it is installed (`command -v NAME`).',
    };
  }
  if (end.exitCode === EXIT_NOT_EXECUTABLE) {
    return {
      code: 'EXEC_NOT_EXECUTABLE',
      message: 'Exit code 126: a command was found but could not be run',
      hint: 'Exit code 126 usually means a file is not executable: check its permissions (`chmod +x FILE`) or run it with its interpreter.',
    };
  }
  return undefined;
}

/** One bracketed line the model can rely on: how it ended, what was cut, what was killed. */
export function statusLine(end: CommandEnd, output: RenderedOutput): string {
  const notes: string[] = [];
  if (end.timedOut) notes.push(`timed out after ${formatSeconds(end.timeoutMs)} s; the command and its child processes were killed`);
  else if (end.killedOnRequest) notes.push('killed on request, with its child processes');
  else if (end.exitCode !== null) notes.push(`exit code ${end.exitCode}`);
  else notes.push(`killed by ${end.signal ?? 'a signal'}`);
  if (output.missingFinalNewline) notes.push('no newline at end of output');
  if (end.truncated) notes.push('output truncated: its middle was dropped, the start and the end are shown; redirect it to a file to read all of it');
  if (end.strayProcessesKilled) {
    notes.push('processes it left running in the background (& or nohup) were killed when it exited; start servers and watchers with background: true');
  }
  return `[${notes.join('; ')}; ${formatDuration(end.durationMs)} s]`;
}
