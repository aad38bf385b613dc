/**
 * A message send through the kernel (gate, message tool checks, `channel/action` to the outbox
 * plugin process, a durable append there) against the same durable append done directly in
 * this process: the ratio is what routing a message through the kernel costs over the write
 * itself. Both sides fsync every record.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/message.bench.js`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createKernel } from '../kernel/index.js';
import { Journal } from '../sdk/journal/index.js';
import { measure, ratio } from './lib/measure.js';

const OUTBOX = path.resolve(import.meta.dirname, '../plugins/channel-outbox/src/main.js');

export async function runMessageBench(options: { timeMs?: number } = {}): Promise<Record<string, unknown>> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'pincer-bench-message-'));
  // The kernel works in the scratch dir: the bundled plugin code (this checkout) must lie outside its workspace.
  const kernel = createKernel({ plugins: [{ id: 'channel-outbox', module: OUTBOX, settings: { dir: path.join(scratch, 'kernel') } }], tools: { profile: 'messaging' } }, { logger: () => undefined, cwd: scratch });
  await kernel.start();
  const journal = new Journal({ dir: path.join(scratch, 'direct'), name: 'outbox' });
  const toolSet = kernel.assembleTools({ channel: 'outbox' });
  const source = { sessionKey: 'agent:main:main', agentId: 'main', channel: 'outbox', crossSession: false };
  let n = 0;
  try {
    const results = await measure(
      {
        'direct durable append': () => {
          n += 1;
          journal.append(`direct-${n}`, { channel: 'outbox', action: 'send', source, to: 'ops', message: `message ${n}` });
        },
        'message send through the kernel': async () => {
          n += 1;
          const result = await toolSet.execute('message', { action: 'send', to: 'ops', message: `message ${n}` }, { toolCallId: `bench-${n}` });
          if (result.isError) throw new Error(JSON.stringify(result.content));
        },
      },
      { timeMs: options.timeMs ?? 1_000 },
    );
    const direct = results['direct durable append'];
    const viaKernel = results['message send through the kernel'];
    return { directAppendUs: round(direct.medianUs), kernelSendUs: round(viaKernel.medianUs), ratio: ratio(viaKernel, direct), samples: { direct: direct.samples, kernel: viaKernel.samples } };
  } finally {
    journal.close();
    await kernel.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const round = (x: number): number => Math.round(x * 100) / 100;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runMessageBench(), null, 2));
}
