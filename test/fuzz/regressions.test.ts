/**
 * What the fuzz suites found, pinned as plain examples: a `$/cancelRequest` without an id threw
 * inside vscode-jsonrpc's reader callback (the receiving process's socket handler: an uncaught
 * exception of the kernel, or of an SDK plugin), and an answer the library refuses ("neither a
 * result nor an error") failed the call without saying which plugin sent it.
 */
import { PassThrough } from 'node:stream';
import { createMessageConnection, RequestType } from 'vscode-jsonrpc/node';
import { describe, expect, it } from 'vitest';
import { toKernelError } from '../../kernel/host/errors.js';
import { InvalidMessageError, createStreamTransport } from '../../protocol/index.js';

function connectionOverRawLines() {
  const incoming = new PassThrough();
  const outgoing = new PassThrough();
  const transport = createStreamTransport(incoming, outgoing, { peer: 'plugin "rude"' });
  const conn = createMessageConnection(transport.reader, transport.writer);
  const errors: Error[] = [];
  conn.onError(([error]) => void errors.push(error));
  conn.onRequest(new RequestType<{ n: number }, number, void>('double'), (p) => p.n * 2);
  conn.listen();
  const answers: string[] = [];
  outgoing.on('data', (chunk: Buffer) => answers.push(...chunk.toString().split('\n').filter(Boolean)));
  return { incoming, errors, answers, conn };
}

describe('regressions found by fuzzing the wire', () => {
  it.each([
    ['no params', '{"jsonrpc":"2.0","method":"$/cancelRequest"}'],
    ['params null', '{"jsonrpc":"2.0","method":"$/cancelRequest","params":null}'],
    ['no id', '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}'],
    ['a null id', '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":null}}'],
  ])('drops a $/cancelRequest with %s, naming the peer, and reads on', async (_what, line) => {
    const { incoming, errors, answers, conn } = connectionOverRawLines();
    expect(() => incoming.write(`${line}\n`)).not.toThrow();
    incoming.write('{"jsonrpc":"2.0","id":7,"method":"double","params":{"n":21}}\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(InvalidMessageError);
    expect(errors[0]!.message).toMatch(/^plugin "rude" sent a JSON-RPC message that was dropped \(a \$\/cancelRequest without a string or number id\): /);
    expect(answers.map((a) => JSON.parse(a))).toEqual([{ jsonrpc: '2.0', id: 7, result: 42 }]);
    conn.dispose();
  });

  it('still cancels with a well-formed $/cancelRequest', async () => {
    const { incoming, errors, conn } = connectionOverRawLines();
    incoming.write('{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"never-sent"}}\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toEqual([]);
    conn.dispose();
  });

  it('names the plugin when the RPC library refuses its answer', () => {
    const error = toKernelError(new Error('The received response has neither a result nor an error property.'), 'rude', 'tool "emit"');
    expect(error).toMatchObject({ code: 'PLUGIN_ERROR', pluginId: 'rude', message: 'tool "emit": plugin "rude": The received response has neither a result nor an error property.' });
    expect(toKernelError(new Error('plugin "rude" did something'), 'rude', 'x').message).toBe('x: plugin "rude" did something');
  });
});
