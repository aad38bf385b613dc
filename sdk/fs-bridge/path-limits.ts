/** Longest file name (one path component) Linux file systems accept, in bytes. */
export const NAME_MAX_BYTES = 255;
/** Longest path the kernel resolves, in bytes (PATH_MAX minus the terminating NUL). */
export const PATH_MAX_BYTES = 4095;

/**
 * What no file system can name, found before any I/O so every backend refuses it with
 * the same typed error instead of a transport's "invalid argument" (a NUL cannot cross
 * an exec argument) or a resolver's ENAMETOOLONG. Returns the problem, or null.
 */
export function pathSyntaxProblem(input: string): string | null {
  if (input.includes('\0')) return 'Path contains a NUL byte';
  const bytes = Buffer.byteLength(input);
  if (bytes > PATH_MAX_BYTES) return `Path is ${bytes} bytes long; paths are limited to ${PATH_MAX_BYTES} bytes`;
  for (const component of input.split('/')) {
    const length = Buffer.byteLength(component);
    if (length > NAME_MAX_BYTES) {
      return `Path component "${component.slice(0, 24)}…" is ${length} bytes long; file names are limited to ${NAME_MAX_BYTES} bytes`;
    }
  }
  return null;
}
