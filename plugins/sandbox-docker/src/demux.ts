import { Readable } from 'node:stream';

/**
 * Splits Docker's multiplexed attach stream (non-TTY): frames of an 8-byte header
 * `[stream, 0, 0, 0, size(u32 BE)]` then `size` bytes; stream 1 is stdout, 2 stderr.
 * Frames may straddle chunks, so partial headers and bodies are carried over.
 *
 * The two streams are pushed to, not written to: a flowing Readable emits a pushed chunk at
 * once, so a listener of both hears the frames in the engine's order. Through PassThrough
 * streams a flood of stdout queued behind its high-water mark while a later stderr line went
 * straight through, and the stderr line arrived first.
 */
export function demuxDockerStream(source: Readable): { stdout: Readable; stderr: Readable } {
  const stdout = new Readable({ read() {} });
  const stderr = new Readable({ read() {} });
  let buffered: Buffer = Buffer.alloc(0);
  source.on('data', (chunk: Buffer) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    while (buffered.length >= 8) {
      const size = buffered.readUInt32BE(4);
      if (buffered.length < 8 + size) break;
      (buffered[0] === 2 ? stderr : stdout).push(buffered.subarray(8, 8 + size));
      buffered = buffered.subarray(8 + size);
    }
  });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    stdout.push(null);
    stderr.push(null);
  };
  source.once('end', finish);
  source.once('close', finish);
  source.once('error', finish);
  return { stdout, stderr };
}
