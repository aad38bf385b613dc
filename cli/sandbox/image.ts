/**
 * `pincer sandbox image build [--tag T] [--file F]`: builds the sandbox image through the engine
 * API, with the engine's build output on stderr as it arrives, so stdout stays the result.
 */
import { resolve } from 'node:path';
import { DEFAULT_SANDBOX_IMAGE } from '../../sdk/sandbox/constants.js';
import { buildSandboxImage, shippedDockerfile } from '../../plugins/sandbox-docker/src/index.js';
import { err, out, outJson, type CliContext } from '../context.js';
import { connectDocker } from './docker-lifecycle.js';
import { engineError } from './engine.js';

export async function buildImageCommand(ctx: CliContext, options: { tag?: string; file?: string; json?: boolean }): Promise<number> {
  const tag = options.tag ?? DEFAULT_SANDBOX_IMAGE;
  const dockerfile = options.file ? resolve(ctx.cwd, options.file) : shippedDockerfile();
  const engine = await connectDocker();
  if (!options.json) err(ctx, ctx.errColors.dim(`Building ${tag} from ${dockerfile} on ${engine.endpoint}`));
  const result = await buildSandboxImage(engine.docker, {
    tag,
    dockerfile,
    onProgress: (line) => err(ctx, ctx.errColors.dim(line)),
  }).catch((error: unknown) => { throw engineError(error, engine.endpoint); });
  if (options.json) outJson(ctx, { ok: true, tag: result.tag, imageId: result.imageId ?? null, dockerfile });
  else out(ctx, `${ctx.colors.green('✓')} Built ${result.tag}${result.imageId ? ` (${result.imageId.slice(0, 19)})` : ''}; set sandbox.docker.image to it if it is not the default (${DEFAULT_SANDBOX_IMAGE}).`);
  return 0;
}
