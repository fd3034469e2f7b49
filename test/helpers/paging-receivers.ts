/**
 * Real peers for paging tests, on 127.0.0.1: an SMTP server (the `smtp-server` package; messages parsed
 * with `mailparser`), and an HTTP server that stands in for ntfy, Slack, Mattermost, Microsoft Teams and
 * Discord (which cannot run here): it speaks the ntfy publish API (`POST /<topic>`, message body, `Title`,
 * `Priority`, `Actions` headers) and each chat service's incoming-webhook path, and checks the documented
 * payload shape of each, answering 400 to a body that does not have it. `failWith` makes a path answer an
 * error status, for retry tests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** A parsed message and when its DATA began to arrive (ms since the epoch, the machine's clock). */
export type SmtpMessage = ParsedMail & { receivedAt: number };

export interface SmtpPeer {
  url: string;
  messages: SmtpMessage[];
  close(): Promise<void>;
}

/** An SMTP server accepting any login; every message is parsed into `messages`. */
export async function startSmtpPeer(): Promise<SmtpPeer> {
  const messages: SmtpMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onAuth: (_auth, _session, cb) => cb(null, { user: 'test' }),
    onData: (stream, _session, cb) => {
      const receivedAt = Date.now();
      simpleParser(stream)
        .then((m) => {
          messages.push(Object.assign(m, { receivedAt }));
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://pager:secret@127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Received {
  /** When the request arrived (ms since the epoch, the machine's clock). */
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json?: any;
}

export interface HttpPeer {
  url: string;
  received: Received[];
  failWith: Map<string, number>;
  close(): Promise<void>;
}

/** Why a body is not what the service at `path` documents, or null when it is. */
function shapeProblem(path: string, r: Received): string | null {
  const j = r.json;
  if (path.startsWith('/slack/'))
    return typeof j?.text === 'string' && Array.isArray(j.blocks) ? null : 'Slack needs text and blocks';
  if (path.startsWith('/mattermost/')) return typeof j?.text === 'string' ? null : 'Mattermost needs text';
  if (path.startsWith('/teams/'))
    return j?.type === 'message' &&
      j.attachments?.[0]?.contentType === 'application/vnd.microsoft.card.adaptive' &&
      j.attachments[0].content?.type === 'AdaptiveCard'
      ? null
      : 'Teams needs a message with an Adaptive Card attachment';
  if (path.startsWith('/discord/'))
    return typeof j?.content === 'string' && j.content.length <= 2000 && Array.isArray(j.embeds)
      ? null
      : 'Discord needs content (<= 2000) and embeds';
  if (path.startsWith('/hook/')) return r.headers['x-service-signature'] ? null : 'unsigned';
  // ntfy: POST /<topic>, the message as the body.
  return /^\/[A-Za-z0-9_-]{1,64}$/.test(path) && r.body.length > 0 && typeof r.headers.title === 'string'
    ? null
    : 'ntfy needs POST /<topic> with a message and a Title';
}

/** The stand-in for ntfy and the chat services. */
export async function startHttpPeer(): Promise<HttpPeer> {
  const received: Received[] = [];
  const failWith = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const r: Received = { at, path, headers: req.headers, body };
      try {
        if ((req.headers['content-type'] ?? '').includes('json')) r.json = JSON.parse(body);
      } catch {
        /* shapeProblem reports it */
      }
      const fail = failWith.get(path);
      if (fail) {
        received.push(r);
        return void res.writeHead(fail).end('unavailable');
      }
      const problem = req.method === 'POST' ? shapeProblem(path, r) : 'POST only';
      if (problem) return void res.writeHead(400, { 'content-type': 'text/plain' }).end(problem);
      received.push(r);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"msg1"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    failWith,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
