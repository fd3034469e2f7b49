/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1. It stands in for a language
 * model, which cannot run here: it speaks the documented protocol (POST /v1/chat/completions, JSON
 * or `stream: true` server-sent events with content and tool-call deltas and a final usage chunk,
 * `data: [DONE]`), and answers each request with the next scripted turn. Requests are recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCallSpec {
  name: string;
  arguments: Record<string, unknown> | string;
}

/** One scripted answer: text, tool calls, an HTTP error, or never answering (a hung model). */
export type Turn =
  { content?: string; toolCalls?: ToolCallSpec[] } | { status: number; error: string } | { hang: true };

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface ScriptedModel {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Sets the turns the next requests get, in order; a turn may be computed from the request. */
  script(turns: Array<Turn | ((body: any) => Turn)>): void;
  /** How many scripted turns are still unused. */
  remaining(): number;
  close(): Promise<void>;
}

const USAGE = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  let queue: Array<Turn | ((body: any) => Turn)> = [];
  const requests: RecordedRequest[] = [];
  const hung = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const next = queue.shift();
      const turn: Turn =
        typeof next === 'function' ? next(body) : (next ?? { status: 500, error: 'no scripted turn left' });
      if ('hang' in turn) {
        hung.add(res);
        res.on('close', () => hung.delete(res));
        return;
      }
      if ('status' in turn) {
        res
          .writeHead(turn.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: turn.error, type: 'server_error' } }));
        return;
      }
      const model = body.model;
      const calls = (turn.toolCalls ?? []).map((c, i) => ({
        id: `call_${requests.length}_${i}`,
        name: c.name,
        args: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
      }));
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: turn.content ?? null,
                  ...(calls.length
                    ? {
                        tool_calls: calls.map((c) => ({
                          id: c.id,
                          type: 'function',
                          function: { name: c.name, arguments: c.args },
                        })),
                      }
                    : {}),
                },
                finish_reason: calls.length ? 'tool_calls' : 'stop',
              },
            ],
            usage: USAGE,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk(model, { role: 'assistant', content: '' }));
      const text = turn.content ?? '';
      for (let i = 0; i < text.length; i += 7) res.write(chunk(model, { content: text.slice(i, i + 7) }));
      calls.forEach((c, index) => {
        // Arguments arrive split across deltas, as real servers send them.
        const half = Math.ceil(c.args.length / 2);
        res.write(
          chunk(model, {
            tool_calls: [
              { index, id: c.id, type: 'function', function: { name: c.name, arguments: c.args.slice(0, half) } },
            ],
          }),
        );
        res.write(chunk(model, { tool_calls: [{ index, function: { arguments: c.args.slice(half) } }] }));
      });
      res.write(chunk(model, {}, calls.length ? 'tool_calls' : 'stop'));
      if (body.stream_options?.include_usage) {
        res.write(
          `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage: USAGE })}\n\n`,
        );
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(turns) {
      queue = [...turns];
    },
    remaining: () => queue.length,
    close: async () => {
      for (const r of hung) r.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The tool messages of a request, parsed. */
export function toolResults(body: any): Array<{ tool_call_id: string; content: any }> {
  return (body.messages ?? [])
    .filter((m: any) => m.role === 'tool')
    .map((m: any) => ({ tool_call_id: m.tool_call_id, content: JSON.parse(m.content) }));
}
