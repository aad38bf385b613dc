/**
 * Questions on a terminal: a closed choice with a default, or free text. Prompts go to stderr so
 * stdout stays the command's result; an unrecognized answer is asked again, never guessed.
 */
import { createInterface, type Interface } from 'node:readline/promises';
import type { CliContext, InStream, OutStream } from '../context.js';
import { CliError } from '../errors.js';

export interface Asker {
  choose<T extends string>(question: string, choices: readonly T[], fallback: T): Promise<T>;
  text(question: string, validate: (answer: string) => string | undefined): Promise<string>;
  close(): void;
}

/** True when someone can answer: stdin and stderr are both a terminal. */
export function canAsk(ctx: CliContext): ctx is CliContext & { stdin: InStream } {
  return ctx.stdin?.isTTY === true && ctx.stderr.isTTY === true;
}

export function createAsker(input: InStream, output: OutStream): Asker {
  // Line by line, without readline's own echo: the terminal echoes in its cooked mode.
  const rl: Interface = createInterface({ input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (prompt: string): Promise<string> => {
    output.write(prompt);
    const next = await lines.next();
    if (next.done) throw new CliError('USAGE', 'input ended before every question was answered', { hint: 'Give the choices as flags instead (pincer init --help).' });
    return String(next.value).trim();
  };
  return {
    async choose(question, choices, fallback) {
      for (;;) {
        const answer = (await ask(`${question} (${choices.join(', ')}) [${fallback}]: `)).toLowerCase();
        if (answer === '') return fallback;
        const match = choices.find((choice) => choice === answer);
        if (match) return match;
        output.write(`  "${answer}" is not one of ${choices.join(', ')}\n`);
      }
    },
    async text(question, validate) {
      for (;;) {
        const answer = await ask(`${question}: `);
        const problem = validate(answer);
        if (problem === undefined) return answer;
        output.write(`  ${problem}\n`);
      }
    },
    close: () => rl.close(),
  };
}
