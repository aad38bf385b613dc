/**
 * The CLI's one error type. Every failure a user can cause or meet ends as a `CliError` with a
 * stable code (for `--json` consumers and tests) and the process exit code it maps to, so no
 * command decides exit codes ad hoc and no caller parses English.
 */

/** Stable codes, printed in `--json` error output. */
export type CliErrorCode =
  /** Bad command line: unknown command or flag, missing or malformed argument. Exit 2. */
  | 'USAGE'
  /** The config file is missing, unreadable or invalid. Exit 1. */
  | 'CONFIG'
  /** A tool call failed, returned `isError`, or was blocked by the gate. Exit 1. */
  | 'CALL_FAILED'
  /** `explain`/`call` named a tool no enabled plugin contributes. Exit 1. */
  | 'UNKNOWN_TOOL'
  /** The kernel failed to start, assemble or stop. Exit 1. */
  | 'KERNEL'
  /** A health check found a problem (e.g. a failed plugin). Exit 1. */
  | 'UNHEALTHY'
  /** The run's workspace is `/` or the home directory and `--workspace` did not name it. Exit 1. */
  | 'UNSAFE_WORKSPACE'
  /** A file the command would create exists (`init`, `plugin new`) and `--force` was not given. Exit 1. */
  | 'FILE_EXISTS'
  /** `policy test` found a run whose tools differ from what the expectations file says. Exit 1. */
  | 'EXPECTATION_FAILED'
  /** A bug in the CLI itself. Exit 70 (EX_SOFTWARE). */
  | 'INTERNAL';

/** The exit status each code ends the process with. */
export const CLI_EXIT_CODES: Readonly<Record<CliErrorCode, number>> = {
  USAGE: 2,
  CONFIG: 1,
  CALL_FAILED: 1,
  UNKNOWN_TOOL: 1,
  KERNEL: 1,
  UNHEALTHY: 1,
  UNSAFE_WORKSPACE: 1,
  FILE_EXISTS: 1,
  EXPECTATION_FAILED: 1,
  INTERNAL: 70,
};

export interface CliErrorOptions {
  cause?: unknown;
  /** Structured facts for `--json` output (issues, the tool name, the kernel's error code...). */
  data?: Record<string, unknown>;
  /** A hint line printed after the message, e.g. "Run 'pincer tools --help'". */
  hint?: string;
  /** When the command already printed its own report, main only sets the exit code. */
  reported?: boolean;
}

export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: number;
  readonly data?: Record<string, unknown>;
  readonly hint?: string;
  readonly reported: boolean;

  constructor(
    readonly code: CliErrorCode,
    message: string,
    options: CliErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = CLI_EXIT_CODES[code];
    this.data = options.data;
    this.hint = options.hint;
    this.reported = options.reported ?? false;
  }
}

/** A usage error that points at the command's help. */
export function usageError(message: string, command?: string): CliError {
  const help = command ? `pincer ${command} --help` : 'pincer --help';
  return new CliError('USAGE', message, { hint: `Run '${help}' for usage.` });
}

/** Normalizes anything thrown into a CliError, keeping a kernel error's own code as data. */
export function toCliError(err: unknown, fallback: CliErrorCode = 'INTERNAL'): CliError {
  if (err instanceof CliError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const code = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : undefined;
  return new CliError(fallback, message, { cause: err, data: code ? { kernelCode: code } : undefined });
}
