/**
 * Minimal ANSI styling. Colour is on only when the stream is a terminal and `NO_COLOR` is unset
 * or empty (https://no-color.org); `FORCE_COLOR` (non-empty, not "0") turns it on for pipes, which
 * is how tests check the coloured form.
 */

export interface Colors {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

export function shouldColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

export function createColors(enabled: boolean): Colors {
  // 22/39 reset only the attribute we set, so nested styles survive.
  const wrap = (open: number, close: number) => (text: string) =>
    enabled && text ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** The text as a terminal shows it, for width arithmetic. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}
