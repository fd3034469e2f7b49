/**
 * The receiving ends of `bench:paging`, in the benchmark's process on 127.0.0.1: an SMTP server (the
 * `smtp-server` package, as the tests use) and an HTTP server speaking ntfy's publish API (`POST /<topic>`, the
 * title in `Title`). Each records when a message arrived and the alert it is about, found by `key` in its subject
 * or title; nothing is parsed beyond the headers, so the receivers cost the measured service little.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Arrival {
  at: number;
  /** The subject (email) or title (push). */
  title: string;
}

export interface PagingPeers {
  smtpUrl: string;
  ntfyUrl: string;
  emails: Arrival[];
  pushes: Arrival[];
  close(): Promise<void>;
}

export async function startPagingPeers(): Promise<PagingPeers> {
  const emails: Arrival[] = [];
  const pushes: Arrival[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onAuth: (_auth, _session, cb) => cb(null, { user: 'bench' }),
    onData: (stream, _session, cb) => {
      const at = Date.now();
      let head = '';
      stream.on('data', (c: Buffer) => {
        if (head.length < 8192) head += c.toString('utf8');
      });
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
        emails.push({ at, title: subject });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const ntfy = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const at = Date.now();
    req.resume();
    req.on('end', () => {
      pushes.push({ at, title: String(req.headers.title ?? '') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"bench"}');
    });
  });
  await new Promise<void>((resolve) => ntfy.listen(0, '127.0.0.1', resolve));
  return {
    smtpUrl: `smtp://bench:bench@127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    ntfyUrl: `http://127.0.0.1:${(ntfy.address() as AddressInfo).port}`,
    emails,
    pushes,
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => ntfy.close(() => resolve()));
    },
  };
}
