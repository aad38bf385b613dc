import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-jsonrpc';
import { ProtocolErrorCodes } from '../v1/errors.js';
import { MessageTooLargeError } from './errors.js';

function isResponse(msg: Message): msg is Message & { id: number | string | null } {
  return 'id' in msg && !('method' in msg);
}

/**
 * vscode-jsonrpc writer over ndjson with the size cap enforced on the sending side:
 * an oversized response becomes a MessageTooLarge error response, an oversized request or
 * notification is refused (the request's promise rejects).
 */
export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  constructor(
    private readonly writable: Writable,
    private readonly options: { peer: string; maxMessageBytes: number },
  ) {
    super();
    writable.on('error', (error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let text: string;
    try {
      text = JSON.stringify(msg) + '\n';
    } catch (error) {
      // Too deep or cyclic: the message is at fault, not the channel (which stays usable).
      return Promise.reject(new Error(`Unserializable: a message to ${this.options.peer} cannot be serialized: ${(error as Error)?.message ?? error}`));
    }
    const size = Buffer.byteLength(text);
    if (size > this.options.maxMessageBytes) {
      const error = new MessageTooLargeError(this.options.peer, size, this.options.maxMessageBytes, 'outgoing');
      if (!isResponse(msg)) return Promise.reject(error);
      const data = { detail: { size, limit: this.options.maxMessageBytes } };
      text = JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: ProtocolErrorCodes.MessageTooLarge, message: error.message, data } }) + '\n';
    }
    if (this.writable.destroyed || this.writable.writableEnded) {
      return Promise.reject(new Error(`the RPC channel to ${this.options.peer} is closed`));
    }
    return new Promise((resolve, reject) => {
      this.writable.write(text, 'utf8', (error) => (error ? reject(error) : resolve()));
    });
  }

  end(): void {
    this.writable.end();
  }
}
