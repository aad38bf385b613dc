/**
 * `pincer call`'s approval surface: when stdin is a terminal, a hook's or policy's approval
 * request is shown on stderr (what asks, the tool, its arguments, the digest the answer binds to)
 * and answered by typing once, always or deny. Without a terminal nobody can answer, so the call
 * ends with the kernel's usual refusal instead of waiting.
 */
import { createInterface } from 'node:readline';
import type { ApprovalDecision, ApprovalResolution, ApprovalSurface, ApprovalSurfaceRequest } from '../../kernel/gate/index.js';
import { approvalMessage } from '../serve/approvals.js';
import type { Colors } from './color.js';
import type { OutStream } from '../context.js';

const KEYS: Record<string, ApprovalDecision> = { o: 'allow-once', once: 'allow-once', a: 'allow-always', always: 'allow-always', d: 'deny', deny: 'deny', n: 'deny', no: 'deny' };

/** `beforePrompt` runs before the question is written (the caller stops its spinner). */
export function terminalApprovalSurface(input: NodeJS.ReadableStream & { isTTY?: boolean }, output: OutStream, colors: Colors, beforePrompt: () => void = () => undefined): ApprovalSurface {
  return {
    canAsk: () => input.isTTY === true,
    request(request: ApprovalSurfaceRequest, { signal }): Promise<ApprovalResolution> {
      beforePrompt();
      const choices = request.allowedDecisions.map((d) => (d === 'allow-once' ? '[o]nce' : d === 'allow-always' ? '[a]lways' : '[d]eny')).join(', ');
      output.write(`\n${colors.yellow('Approval needed')}: ${approvalMessage(request)}\n`);
      const rl = createInterface({ input, output: output as NodeJS.WritableStream, terminal: false });
      return new Promise<ApprovalResolution>((resolve) => {
        let done = false;
        const finish = (resolution: ApprovalResolution) => {
          if (done) return;
          // Settled before close(): closing emits 'close', which would otherwise answer 'cancelled' first.
          done = true;
          resolve(resolution);
          signal.removeEventListener('abort', onAbort);
          rl.close();
        };
        const onAbort = () => finish('cancelled');
        signal.addEventListener('abort', onAbort, { once: true });
        const ask = () => {
          output.write(`Allow this call? ${choices}: `);
          rl.once('line', (line) => {
            const decision = KEYS[line.trim().toLowerCase()];
            if (decision && request.allowedDecisions.includes(decision)) finish(decision);
            else ask();
          });
        };
        rl.once('close', () => finish('cancelled'));
        ask();
      });
    },
  };
}
