/**
 * What every command's environment starts from, on every backend: nothing in a command may
 * wait for a terminal, an editor or a pager the model cannot drive. The backend's configured
 * env and the call's own env override these.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = Object.freeze({
  TERM: 'dumb',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  // `true` exits at once: `git commit` without -m aborts with "empty message" instead of hanging.
  EDITOR: 'true',
  VISUAL: 'true',
  GIT_EDITOR: 'true',
  GIT_TERMINAL_PROMPT: '0',
});

/** A portable environment variable name: what `export NAME=...` accepts, so never `X=Y`. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The first name in `env` that is not a valid variable name, if any. */
export function invalidEnvName(env: Readonly<Record<string, string>> = {}): string | undefined {
  return Object.keys(env).find((name) => !ENV_NAME_PATTERN.test(name));
}
