/**
 * A stdio transport for the SDK's Server that answers bad input instead of dropping it:
 * a line that is not JSON gets a JSON-RPC parse error (-32700), a request that does not
 * fit the protocol's message schema gets "invalid request" (-32600) with its id, an
 * overlong line is skipped with a parse error, and the end of input closes the transport
 * (the SDK's own stdio transport does neither of the last two). Newline-delimited JSON, as
 * the MCP stdio transport specifies.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const MAX_LINE = 8 << 20;

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** called at the end of input instead of closing at once (to let answers in flight out) */
  onInputEnd?: () => void;
  /** writes not yet flushed */
  pending = 0;
  private buf = '';
  private skipping = false;
  private closed = false;
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
    this.output.on('error', this.onOutputError);
  }

  private readonly onData = (chunk: Buffer | string) => {
    this.buf += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
      if (this.skipping) this.skipping = false;
      else this.handle(line.replace(/\r$/, ''));
    }
    if (this.buf.length > MAX_LINE) {
      this.buf = '';
      if (!this.skipping) this.reply(null, -32700, `Parse error: message over ${MAX_LINE} bytes`);
      this.skipping = true;
    }
  };

  private readonly onEnd = () => {
    const rest = (this.buf + this.decoder.end()).trim();
    this.buf = '';
    if (rest && !this.skipping) this.handle(rest);
    if (this.onInputEnd) this.onInputEnd();
    else void this.close();
  };

  private readonly onInputError = (e: Error) => this.onerror?.(e);
  private readonly onOutputError = () => void this.close();

  private handle(line: string): void {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      this.onerror?.(new Error(`not JSON: ${(e as Error).message}`));
      return this.reply(null, -32700, 'Parse error: the line is not JSON');
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (parsed.success) return this.onmessage?.(parsed.data as JSONRPCMessage);
    const o = json as Record<string, unknown> | null;
    const id = o && typeof o === 'object' && (typeof o.id === 'string' || typeof o.id === 'number') ? o.id : null;
    this.onerror?.(new Error(`not a JSON-RPC message${id === null ? '' : ` (id ${JSON.stringify(id)})`}`));
    // A notification (no id) gets no answer, as JSON-RPC says; anything else does.
    if (id !== null || !(o && typeof o === 'object' && 'method' in o)) this.reply(id, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
  }

  private reply(id: string | number | null, code: number, message: string): void {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(msg: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.pending++;
    return new Promise((resolve) => {
      this.output.write(`${JSON.stringify(msg)}\n`, () => {
        this.pending--;
        resolve();
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.output.off('error', this.onOutputError);
    this.onclose?.();
  }
}
