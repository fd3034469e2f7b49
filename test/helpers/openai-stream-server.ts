/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol
 * (`POST /v1/chat/completions`; with `stream: true`, Server-Sent Events: `data: {chat.completion.chunk}`
 * lines, a usage chunk when `stream_options.include_usage` is set, then `data: [DONE]`).
 *
 * It stands in for a model server (vLLM, TGI, NIM…), which cannot run here: no GPU, no model. Its
 * timing is set, not measured: `firstTokenDelayMs` from the request to the first content chunk and
 * `interTokenDelayMs` between content chunks, so a load generator's measured TTFT and inter-token
 * latency can be compared with known values. It records what it received (requests, the most in
 * flight at once) so tests can check the load shape from the server's side.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StreamServerOptions {
  firstTokenDelayMs?: number;
  interTokenDelayMs?: number;
  /** Content chunks per response (each one token); capped by the request's max_tokens. */
  tokens?: number;
  /** Runs before a request is answered (e.g. to record GPU samples while the run is live). */
  beforeStream?: (requestNumber: number) => Promise<void>;
}

export interface StreamServer {
  url: string;
  /** Requests received so far. */
  received: number;
  /** Requests answered to the end. */
  completed: number;
  inFlight: number;
  maxInFlight: number;
  bodies: Array<Record<string, any>>;
  close(): Promise<void>;
}

export async function startOpenAiStreamServer(opts: StreamServerOptions = {}): Promise<StreamServer> {
  const firstTokenDelayMs = opts.firstTokenDelayMs ?? 100;
  const interTokenDelayMs = opts.interTokenDelayMs ?? 10;
  const tokens = opts.tokens ?? 20;
  const state = { received: 0, completed: 0, inFlight: 0, maxInFlight: 0, bodies: [] as Array<Record<string, any>> };
  const sockets = new Set<import('node:net').Socket>();

  const server = http.createServer({ noDelay: true }, (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = ++state.received;
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      let ended = false;
      const done = () => {
        if (ended) return;
        ended = true;
        state.inFlight--;
      };
      res.on('close', done);
      let body: Record<string, any>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'invalid JSON' } }));
        return;
      }
      state.bodies.push(body);
      const count = Math.min(tokens, Number(body.max_tokens ?? tokens));
      const id = `chatcmpl-${n}`;
      const created = Math.floor(Date.now() / 1000);
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const start = async () => {
        if (opts.beforeStream) await opts.beforeStream(n);
        if (!body.stream) {
          setTimeout(
            () => {
              res.writeHead(200, { 'content-type': 'application/json' });
              res.end(
                JSON.stringify({
                  id,
                  object: 'chat.completion',
                  created,
                  model: body.model,
                  choices: [
                    {
                      index: 0,
                      message: { role: 'assistant', content: 'tok '.repeat(count).trim() },
                      finish_reason: 'length',
                    },
                  ],
                  usage: { prompt_tokens: 1, completion_tokens: count, total_tokens: count + 1 },
                }),
              );
              state.completed++;
            },
            firstTokenDelayMs + interTokenDelayMs * Math.max(0, count - 1),
          );
          return;
        }
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        });
        res.write(chunk({ role: 'assistant', content: '' }));
        let sent = 0;
        const next = () => {
          if (res.destroyed) return;
          res.write(chunk({ content: `tok${sent} ` }));
          sent++;
          if (sent < count) {
            setTimeout(next, interTokenDelayMs);
            return;
          }
          res.write(chunk({}, 'length'));
          if (body.stream_options?.include_usage) {
            res.write(
              `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: { prompt_tokens: 1, completion_tokens: count, total_tokens: count + 1 } })}\n\n`,
            );
          }
          res.end('data: [DONE]\n\n');
          state.completed++;
        };
        setTimeout(next, firstTokenDelayMs);
      };
      start().catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: err.message } }));
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get received() {
      return state.received;
    },
    get completed() {
      return state.completed;
    },
    get inFlight() {
      return state.inFlight;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    bodies: state.bodies,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
