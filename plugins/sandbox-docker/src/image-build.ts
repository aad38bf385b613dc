import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Docker from 'dockerode';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import { toSandboxError } from './engine-errors.js';

/**
 * `pincer sandbox image build`: builds the sandbox image from the Dockerfile Pincer ships
 * (`plugins/sandbox-docker/image/Dockerfile`, or any other) through the engine API, streaming
 * the engine's progress lines to the caller.
 */
export interface ImageBuildOptions {
  tag: string;
  /** A Dockerfile path; its folder is the build context. Default: the shipped one. */
  dockerfile?: string;
  /** Each line of build output, as the engine reports it. */
  onProgress?: (line: string) => void;
  labels?: Record<string, string>;
}

/** The shipped Dockerfile: found from this module, built (dist/…) or not, and inside an installed package. */
export function shippedDockerfile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'plugins', 'sandbox-docker', 'image', 'Dockerfile');
}

interface BuildEvent { stream?: string; status?: string; progress?: string; error?: string; errorDetail?: { message?: string }; aux?: { ID?: string } }

export async function buildSandboxImage(docker: Docker, options: ImageBuildOptions): Promise<{ tag: string; imageId?: string }> {
  const dockerfile = resolve(options.dockerfile ?? shippedDockerfile());
  if (!existsSync(dockerfile) || !statSync(dockerfile).isFile()) {
    throw new SandboxError('CONFIG_INVALID', `No Dockerfile at ${dockerfile}; give an existing file with --file.`, { data: { dockerfile } });
  }
  const context = dirname(dockerfile);
  let stream: NodeJS.ReadableStream;
  try {
    stream = await docker.buildImage({ context, src: readdirSync(context) }, { t: options.tag, dockerfile: basename(dockerfile), labels: options.labels, rm: true, forcerm: true });
  } catch (error) {
    throw toSandboxError(error, `build image ${options.tag}`);
  }
  let imageId: string | undefined;
  let failure: string | undefined;
  await new Promise<void>((done, fail) => {
    docker.modem.followProgress(stream, (error: Error | null) => (error ? fail(toSandboxError(error, `build image ${options.tag}`)) : done()), (event: BuildEvent) => {
      if (event.error) failure = event.errorDetail?.message ?? event.error;
      if (event.aux?.ID) imageId = event.aux.ID;
      const line = (event.stream ?? [event.status, event.progress].filter(Boolean).join(' ')).replace(/\n+$/, '');
      if (line) options.onProgress?.(line);
    });
  });
  if (failure) throw new SandboxError('IMAGE_BUILD_FAILED', `Building ${options.tag} from ${dockerfile} failed: ${failure}`, { data: { dockerfile, tag: options.tag } });
  return { tag: options.tag, imageId };
}
