/** Memory of this process after a full collection, for suites that promise "memory flat". */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Heap used and resident set, in MiB, right after a forced garbage collection. */
export function memoryAfterGc(): { heapMb: number; rssMb: number } {
  if (!gc) {
    // Without --expose-gc on the command line: enable it, then fetch gc from a fresh context.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapMb: heapUsed / 1024 / 1024, rssMb: rss / 1024 / 1024 };
}
