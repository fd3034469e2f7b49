/**
 * A real webhook receiver on 127.0.0.1 for outbound delivery tests: records every request (headers and
 * raw body) and answers as the test's handler decides — a status, a delay, or holding the request open.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
  at: number;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (until the receiver closes). */
  hold?: boolean;
}

export type Handler = (req: ReceivedRequest, index: number) => Reply | Promise<Reply>;

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Distinct `webhook-id` values seen: what a deduplicating receiver would process. */
  uniqueIds(): Set<string>;
  setHandler(h: Handler): void;
  close(): Promise<void>;
}

/** Starts a receiver; the default handler answers 200. */
export async function startReceiver(handler: Handler = () => ({ status: 200 })): Promise<Receiver> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void answer());
    async function answer() {
      const r: ReceivedRequest = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        path: req.url ?? '/',
        at: Date.now(),
      };
      const index = requests.push(r) - 1;
      const reply = await current(r, index);
      if (reply.hold) return;
      if (reply.delayMs) await new Promise((ok) => setTimeout(ok, reply.delayMs));
      if (res.destroyed) return;
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...(reply.headers ?? {}) });
      res.end(reply.body ?? 'ok');
    }
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    uniqueIds: () => new Set(requests.map((r) => String(r.headers['webhook-id']))),
    setHandler: (h) => {
      current = h;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
