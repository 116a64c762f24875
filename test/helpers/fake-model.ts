/**
 * A fake model server on 127.0.0.1 for running real agent CLIs offline: it answers the
 * Anthropic messages API, OpenAI's responses and chat completions APIs and Gemini's
 * generateContent (streaming or not, as each client asks) with one short text reply, and
 * records every request it is sent so a test can look for what reached the model.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeModel {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** every recorded model request body (messages, responses, completions, generateContent), joined */
  modelText(): string;
  /** recorded model requests only (no model lists, token counts, telemetry) */
  modelRequests(): RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

const REPLY = 'OK from the fake model.';

const MODEL_PATH = /\/(messages|responses|chat\/completions|[^/]+:(stream)?generateContent)(\?|$)/i;

function sse(res: ServerResponse, events: Array<[string | null, unknown]>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const [event, data] of events) res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  res.end();
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function anthropic(res: ServerResponse, req: any): void {
  const model = req.model ?? 'claude-fake';
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: REPLY }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  };
  if (!req.stream) return json(res, 200, message);
  sse(res, [
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 0 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: REPLY } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

let seq = 0;
function responses(res: ServerResponse, req: any): void {
  const id = `resp_fake_${++seq}`;
  const item = { type: 'message', id: `msg_${seq}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: REPLY, annotations: [] }] };
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const response = {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model: req.model ?? 'gpt-fake',
    output: [item],
    usage,
  };
  if (req.stream === false) return json(res, 200, response);
  sse(res, [
    ['response.created', { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [] } }],
    [
      'response.output_item.added',
      { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
    ],
    [
      'response.content_part.added',
      {
        type: 'response.content_part.added',
        sequence_number: 2,
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      },
    ],
    [
      'response.output_text.delta',
      { type: 'response.output_text.delta', sequence_number: 3, item_id: item.id, output_index: 0, content_index: 0, delta: REPLY },
    ],
    ['response.output_text.done', { type: 'response.output_text.done', sequence_number: 4, item_id: item.id, output_index: 0, content_index: 0, text: REPLY }],
    [
      'response.content_part.done',
      { type: 'response.content_part.done', sequence_number: 5, item_id: item.id, output_index: 0, content_index: 0, part: item.content[0] },
    ],
    ['response.output_item.done', { type: 'response.output_item.done', sequence_number: 6, output_index: 0, item }],
    ['response.completed', { type: 'response.completed', sequence_number: 7, response }],
  ]);
}

function chat(res: ServerResponse, req: any): void {
  const base = { id: `chatcmpl-fake-${++seq}`, created: Math.floor(Date.now() / 1000), model: req.model ?? 'gpt-fake', system_fingerprint: 'fake' };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!req.stream) {
    return json(res, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: REPLY }, finish_reason: 'stop', logprobs: null }],
      usage,
    });
  }
  const chunk = (delta: unknown, finish: string | null, extra: object = {}) =>
    [null, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...extra }] as [null, unknown];
  sse(res, [chunk({ role: 'assistant', content: '' }, null), chunk({ content: REPLY }, null), chunk({}, 'stop', { usage }), [null, '[DONE]']]);
}

function gemini(res: ServerResponse, stream: boolean): void {
  const body = {
    candidates: [{ content: { role: 'model', parts: [{ text: REPLY }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-fake',
  };
  if (!stream) return json(res, 200, body);
  sse(res, [[null, body]]);
}

function route(r: RecordedRequest, res: ServerResponse): void {
  let req: any = {};
  try {
    req = r.body ? JSON.parse(r.body) : {};
  } catch {
    /* not JSON */
  }
  const p = r.path;
  if (r.method === 'POST' && /\/messages\/count_tokens/.test(p)) return json(res, 200, { input_tokens: 10 });
  if (r.method === 'POST' && /\/messages(\?|$)/.test(p)) return anthropic(res, req);
  if (r.method === 'POST' && /\/responses(\?|$)/.test(p)) return responses(res, req);
  if (r.method === 'POST' && /\/chat\/completions(\?|$)/.test(p)) return chat(res, req);
  if (r.method === 'POST' && /:streamGenerateContent/.test(p)) return gemini(res, true);
  if (r.method === 'POST' && /:generateContent/.test(p)) return gemini(res, false);
  if (r.method === 'POST' && /:countTokens/.test(p)) return json(res, 200, { totalTokens: 10 });
  if (r.method === 'GET' && /\/models(\?|$)/.test(p)) {
    return json(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }], models: [] });
  }
  json(res, 404, { error: { message: `the fake model server has no ${r.method} ${p}`, type: 'not_found' } });
}

export async function startFakeModel(): Promise<FakeModel> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(r);
      try {
        route(r, res);
      } catch (e) {
        json(res, 500, { error: { message: String(e) } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const modelRequests = () => requests.filter((r) => r.method === 'POST' && MODEL_PATH.test(r.path));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    modelRequests,
    modelText: () =>
      modelRequests()
        .map((r) => r.body)
        .join('\n'),
    reset: () => void requests.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
