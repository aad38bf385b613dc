/**
 * Docker engine failures as CLI errors. An unreachable engine is the common operator problem,
 * so its message names the endpoint that was tried and the two usual fixes.
 */
import { CliError } from '../errors.js';

interface EngineFailure { code?: string; message?: string; cause?: { code?: string } }

/** Socket/connection errors that mean "no engine there", as raised by dockerode or wrapped by the plugin. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'EACCES', 'ETIMEDOUT', 'EHOSTUNREACH']);

export function isEngineUnreachable(error: unknown): boolean {
  const e = (error ?? {}) as EngineFailure;
  return UNREACHABLE.has(e.code ?? '') || UNREACHABLE.has(e.cause?.code ?? '');
}

export const ENGINE_FIX = 'Start the engine (e.g. `sudo systemctl start docker`, or `bash scripts/services/start-docker.sh` from a Pincer checkout for the test engine); set DOCKER_HOST if it listens elsewhere.';

export function unreachableMessage(endpoint: string, error: unknown): string {
  const e = (error ?? {}) as EngineFailure;
  const why = e.cause?.code ?? e.code ?? 'no answer';
  return `Docker engine unreachable at ${endpoint} (${why})`;
}

/** Any failure of a lifecycle call, as a CliError (exit 1) carrying the sandbox code for --json. */
export function engineError(error: unknown, endpoint: string): CliError {
  if (error instanceof CliError) return error;
  const sandboxCode = (error as { code?: string })?.code;
  if (isEngineUnreachable(error)) {
    return new CliError('UNHEALTHY', unreachableMessage(endpoint, error), {
      cause: error,
      hint: ENGINE_FIX,
      data: { sandboxCode: 'BACKEND_UNAVAILABLE', endpoint },
    });
  }
  return new CliError('UNHEALTHY', (error as Error)?.message ?? String(error), { cause: error, data: { sandboxCode, endpoint } });
}
