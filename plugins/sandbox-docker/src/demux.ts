import type { Readable, Writable } from 'node:stream';

/**
 * Splits Docker's multiplexed attach stream (non-TTY): frames of an 8-byte header
 * `[stream, 0, 0, 0, size(u32 BE)]` then `size` bytes; stream 1 is stdout, 2 stderr.
 * Frames may straddle chunks, so partial headers and bodies are carried over.
 */
export function demuxDockerStream(source: Readable, stdout: Writable, stderr: Writable): void {
  let buffered: Buffer = Buffer.alloc(0);
  source.on('data', (chunk: Buffer) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    while (buffered.length >= 8) {
      const size = buffered.readUInt32BE(4);
      if (buffered.length < 8 + size) break;
      const payload = buffered.subarray(8, 8 + size);
      (buffered[0] === 2 ? stderr : stdout).write(payload);
      buffered = buffered.subarray(8 + size);
    }
  });
  const finish = () => { stdout.end(); stderr.end(); };
  source.once('end', finish);
  source.once('close', finish);
  source.once('error', finish);
}
