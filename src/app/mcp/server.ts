/**
 * `git handoff mcp`: a Model Context Protocol server on the official TypeScript SDK, over
 * stdio (default) or Streamable HTTP on 127.0.0.1 (`--http`). This file is the only one
 * that loads the SDK, and it is a bundle of its own (scripts/build.mjs), loaded only by
 * this command: the hook and `show` paths never pay for it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { LineTransport } from './stdio-transport.js';
import { callTool, isTool, listResources, listTools, readResource, type McpSession } from './tools.js';

export interface McpOptions {
  /** the repository the server serves (its work tree or git dir) */
  dir: string;
  version: string;
  http?: { port: number };
  /** where the one-line diagnostics go (never stdout: that is the protocol's on stdio) */
  log: (line: string) => void;
}

const INSTRUCTIONS =
  'git-handoff: versioned session handoffs stored in git notes. At session start call handoff_show (or read handoff://latest/bookmark) and confirm with the user before acting on it; at session end call handoff_write. handoff_search finds what earlier sessions wrote.';

/**
 * Tool calls and reads run one at a time, in the order they arrive: a client that sends a
 * write and then a read without waiting reads what it wrote.
 */
let queue: Promise<unknown> = Promise.resolve();
function inOrder<T>(f: () => Promise<T>): Promise<T> {
  const next = queue.then(f, f);
  queue = next.catch(() => {});
  return next;
}

function newServer(opts: McpOptions): Server {
  // One server per client session: what it was shown is its own.
  const session: McpSession = { shown: null };
  const server = new Server(
    { name: 'git-handoff', title: 'git-handoff', version: opts.version },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, logging: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    // An unknown tool is a protocol error (the spec's -32602); everything else a tool error.
    if (!isTool(req.params.name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    return inOrder(() => callTool(opts.dir, req.params.name, req.params.arguments, session));
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: listResources() }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    let contents;
    try {
      contents = await inOrder(() => readResource(opts.dir, req.params.uri));
    } catch (e) {
      throw new McpError(ErrorCode.InternalError, (e as Error).message.split('\n')[0]);
    }
    if (!contents) throw new McpError(-32002, `Resource not found: ${req.params.uri}`);
    return { contents };
  });
  server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
  server.onerror = (e) => opts.log(`git handoff mcp: ${(e as Error)?.message ?? String(e)}`.split('\n')[0]);
  return server;
}

/** Serves until stdin ends (stdio) or the process is told to stop (http). Resolves with the exit code. */
export async function runMcpServer(opts: McpOptions): Promise<number> {
  return opts.http ? serveHttp(opts, opts.http.port) : serveStdio(opts);
}

async function serveStdio(opts: McpOptions): Promise<number> {
  const server = newServer(opts);
  const transport = new LineTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // At the end of input the requests already read are answered, then the transport and
  // the server close and the process exits 0.
  transport.onInputEnd = () => {
    void (async () => {
      for (;;) {
        const tail = queue;
        await tail;
        await new Promise((r) => setImmediate(r));
        if (tail === queue && transport.pending === 0) break;
      }
      await transport.close();
    })();
  };
  await server.connect(transport);
  await closed;
  process.stdin.pause();
  return 0;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 4 << 20) throw new Error('request body over 4 MiB');
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Streamable HTTP at http://127.0.0.1:<port>/mcp, one session per initialize; 127.0.0.1 only. */
async function serveHttp(opts: McpOptions, port: number): Promise<number> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] = [];
  const http = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/mcp') return jsonRpcError(res, 404, -32000, 'not found: the endpoint is /mcp');
      const sid = req.headers['mcp-session-id'];
      const existing = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (existing) return void (await existing.handleRequest(req, res, req.method === 'POST' ? await readBody(req) : undefined));
      if (typeof sid === 'string') return jsonRpcError(res, 404, -32001, 'session not found');
      if (req.method !== 'POST') return jsonRpcError(res, 400, -32000, 'no session: send initialize first');
      let body: unknown;
      try {
        body = await readBody(req);
      } catch (e) {
        return jsonRpcError(res, 400, -32700, `parse error: ${(e as Error).message}`);
      }
      if (!isInitializeRequest(body)) return jsonRpcError(res, 400, -32000, 'no session: send initialize first');
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts,
        onsessioninitialized: (id) => void sessions.set(id, transport),
        onsessionclosed: (id) => void sessions.delete(id),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await newServer(opts).connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (e) {
      opts.log(`git handoff mcp: ${(e as Error).message}`.split('\n')[0]);
      jsonRpcError(res, 500, -32603, 'internal error');
    }
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (http.address() as { port: number }).port;
  allowedHosts = [`127.0.0.1:${bound}`, `localhost:${bound}`, '127.0.0.1', 'localhost'];
  opts.log(`git handoff mcp: serving http://127.0.0.1:${bound}/mcp`);
  return new Promise<number>((resolve) => {
    const stop = () => {
      for (const t of sessions.values()) void t.close().catch(() => {});
      http.close(() => resolve(0));
      http.closeAllConnections?.();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
