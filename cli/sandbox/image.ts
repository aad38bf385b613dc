/**
 * `pincer sandbox image build [--tag T] [--file F]`: the docker backend's plugin builds its image
 * through the engine API (`sandbox/admin/imageBuild`); its build output arrives as the plugin's log
 * lines on stderr, so stdout stays the result.
 */
import { resolve } from 'node:path';
import { out, outJson, type CliContext } from '../context.js';
import { withKernel } from '../kernel-session.js';
import { adminCall } from './admin-call.js';

export async function buildImageCommand(ctx: CliContext, options: { config?: string; tag?: string; file?: string; json?: boolean }): Promise<number> {
  const dockerfile = options.file ? resolve(ctx.cwd, options.file) : undefined;
  return withKernel(ctx, { configFlag: options.config, command: 'sandbox', logLevel: options.json ? 'warn' : 'info', withBundled: ['sandbox-docker'] }, async ({ kernel }) => {
    const result = await adminCall(kernel, 'imageBuild', { backend: 'docker', ...(options.tag ? { tag: options.tag } : {}), ...(dockerfile ? { dockerfile } : {}) });
    if (options.json) outJson(ctx, { ok: true, tag: result.tag, imageId: result.imageId ?? null, dockerfile: result.dockerfile });
    else out(ctx, `${ctx.colors.green('✓')} Built ${result.tag}${result.imageId ? ` (${result.imageId.slice(0, 19)})` : ''}; set sandbox.docker.image to it if it is not the default.`);
    return 0;
  });
}
