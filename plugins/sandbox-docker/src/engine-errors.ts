import { DEFAULT_SANDBOX_IMAGE } from '../../../sdk/sandbox/constants.js';
import { SandboxError } from '../../../sdk/sandbox/errors.js';

interface EngineError { statusCode?: number; code?: string; message?: string; reason?: string; json?: { message?: string } }

const detail = (e: EngineError) => e.json?.message ?? e.message ?? String(e);

/** Exactly how to get the image: the shipped Dockerfile builds any tag; a registry may have others. */
export function imageMissingMessage(image: string): string {
  const build = `pincer sandbox image build${image === DEFAULT_SANDBOX_IMAGE ? '' : ` --tag ${image}`}`;
  return `Sandbox image "${image}" is not present on the Docker engine. Build it from the Dockerfile Pincer ships: ${build} (or docker pull ${image} if a registry has it), or set sandbox.docker.image to an image that exists.`;
}

/**
 * Maps dockerode failures to typed sandbox errors whose message says what to do.
 * `what` names the operation ("create container pincer-sbx-…").
 */
export function toSandboxError(error: unknown, what: string, image?: string): SandboxError {
  if (error instanceof SandboxError) return error;
  const e = (error ?? {}) as EngineError;
  if (e.code === 'ECONNREFUSED' || e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'ETIMEDOUT') {
    return new SandboxError('BACKEND_UNAVAILABLE', `Docker engine unreachable (${e.code}) while trying to ${what}. Start dockerd (or check DOCKER_HOST / the socket permissions), or set agents.defaults.sandbox.mode=off.`, { cause: error });
  }
  if (e.statusCode === 404 && image && /image/i.test(detail(e))) {
    return new SandboxError('IMAGE_MISSING', imageMissingMessage(image), { cause: error, data: { image } });
  }
  if (e.statusCode === 404 || e.statusCode === 409) {
    return new SandboxError('SANDBOX_GONE', `Sandbox container is not running (${detail(e)}) while trying to ${what}; it will be recreated on next use.`, { cause: error });
  }
  return new SandboxError('BACKEND_UNAVAILABLE', `Docker failed to ${what}: ${detail(e)}`, { cause: error });
}
