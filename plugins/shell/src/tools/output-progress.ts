import type { ExecOutputListener } from '../../../../protocol/index.js';
import { formatBytes, OutputLabeller } from './format-output.js';
import type { KeepAlive } from './keep-alive.js';
import type { ShellToolContext } from './results.js';

/** A stretch the backend left out of its reports to keep them small (the result is unaffected). */
const skipped = (bytes: number): string => `[... ${formatBytes(bytes)} of output not shown while it ran ...]`;

/**
 * A running command's output as progress of the call: each report's `message` is the new text,
 * labelled as the result labels it (one labeller for the whole run, so the messages in order read
 * as the result's output does), and `output` the same segments by stream. Without a progress
 * channel (an in-process caller), no output is asked for.
 */
export function outputProgress(ctx: ShellToolContext, alive: KeepAlive): ExecOutputListener | undefined {
  const progress = ctx.progress;
  if (progress === undefined) return undefined;
  const labeller = new OutputLabeller(skipped);
  return (output) => {
    const message = labeller.render(output);
    if (message === '') return;
    alive.reported();
    progress({ message, output: [...output] });
  };
}
