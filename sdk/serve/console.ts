import { Writable } from 'node:stream';
import { format } from 'node:util';

/**
 * Sends everything a plugin (or a dependency) prints to stderr, which the kernel logs per line.
 * Returns a writable bound to the real stdout, for the `stdio` transport's protocol messages.
 */
export function routeConsoleToStderr(): Writable {
  const toStderr = (...args: unknown[]): void => void process.stderr.write(format(...args) + '\n');
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const realWrite = process.stdout.write.bind(process.stdout);
  // Stray process.stdout.write calls (dependencies) become log lines instead of corrupting frames.
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
  return new Writable({
    write(chunk: Buffer, _enc, callback) {
      realWrite(chunk, (error?: Error | null) => callback(error ?? null));
    },
  });
}
