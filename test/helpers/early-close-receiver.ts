/**
 * A hostile webhook receiver on 127.0.0.1, written on raw TCP (node:net) because node:http's server always
 * drains or politely finishes a request body and so cannot misbehave the way the probe's receivers did.
 *
 * For each request it reads the head (request line and headers) and then, as the current `Behaviour`
 * says, either behaves (reads the whole body, answers, keeps the connection alive for the next request),
 * or answers EARLY — before reading the body — with a status (200, 500, 413...), with or without
 * `Connection: close`, and then stops reading after a few body bytes and ends the connection (FIN with
 * unread data, which the kernel turns into a reset), destroys it, or resets it outright (RST). Connections
 * that behaved are reused by the client's keep-alive pool, so later early answers land on reused sockets.
 *
 * It speaks just enough HTTP/1.1 for the delivery client: requests with `Content-Length` bodies.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type Ending =
  /** Read the whole body, answer, keep the connection open for the next request. */
  | 'behave'
  /**
   * Answer early and end the connection (FIN) right after the answer, keep reading until `afterBodyBytes`
   * body bytes arrived, then close: the bytes still coming are answered with a reset (the lingering
   * close of many servers and proxies).
   */
  | 'end'
  /** Answer early, then close at once (socket.destroy) once `afterBodyBytes` body bytes arrived. */
  | 'destroy'
  /** Answer early, then reset (RST, socket.resetAndDestroy) once `afterBodyBytes` body bytes arrived. */
  | 'reset';

export interface Behaviour {
  status: number;
  ending: Ending;
  /** Send `Connection: close` with the answer (default: keep-alive, which invites the client to reuse). */
  connectionClose?: boolean;
  /** Body bytes to read before ending the connection (default 0: right after the head). */
  afterBodyBytes?: number;
  /**
   * Then stop reading and wait this long before closing (default 0): the client's body fills the socket
   * buffers meanwhile, so its write is still pending when the close arrives, as with a distant receiver.
   */
  lingerMs?: number;
}

export interface SeenRequest {
  path: string;
  headers: Record<string, string>;
  contentLength: number;
  /** Body bytes read before the connection was ended (equal to contentLength when it behaved). */
  bodyBytesRead: number;
  behaviour: Behaviour;
  /** True when this request arrived on a connection that had already served a request. */
  reusedConnection: boolean;
}

export interface EarlyCloseReceiver {
  url: string;
  requests: SeenRequest[];
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** Starts the receiver; `choose(n)` decides how to treat the n-th request (0-based, across connections). */
export async function startEarlyCloseReceiver(choose: (n: number) => Behaviour): Promise<EarlyCloseReceiver> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // The client resets connections too; that is expected here, not a test failure.
    socket.on('error', () => {});
    let buffered: Buffer = Buffer.alloc(0);
    let served = 0;
    let current: { seen: SeenRequest; remaining: number } | null = null;
    let done = false;

    const answer = (b: Behaviour) => {
      const reason = b.status === 200 ? 'OK' : 'Early';
      const head = [`HTTP/1.1 ${b.status} ${reason}`, 'Content-Type: text/plain', 'Content-Length: 2'];
      head.push(b.connectionClose ? 'Connection: close' : 'Connection: keep-alive');
      socket.write(`${head.join('\r\n')}\r\n\r\nok`);
    };

    const hangUp = (b: Behaviour) => {
      done = true;
      socket.pause();
      const close = () => (b.ending === 'reset' ? socket.resetAndDestroy() : socket.destroy());
      if (b.lingerMs) timers.add(setTimeout(close, b.lingerMs));
      else close();
    };

    const step = () => {
      while (!done) {
        if (!current) {
          const headEnd = buffered.indexOf('\r\n\r\n');
          if (headEnd < 0) return;
          const lines = buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
          buffered = buffered.subarray(headEnd + 4);
          const headers: Record<string, string> = {};
          for (const line of lines.slice(1)) {
            const i = line.indexOf(':');
            if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
          }
          const behaviour = choose(requests.length);
          const seen: SeenRequest = {
            path: lines[0].split(' ')[1] ?? '/',
            headers,
            contentLength: Number(headers['content-length'] ?? 0),
            bodyBytesRead: 0,
            behaviour,
            reusedConnection: served > 0,
          };
          requests.push(seen);
          served++;
          current = { seen, remaining: seen.contentLength };
          if (behaviour.ending !== 'behave') {
            answer(behaviour);
            if (behaviour.ending === 'end') socket.end();
          }
        }
        const { seen } = current;
        const b = seen.behaviour;
        const want =
          b.ending === 'behave' ? current.remaining : Math.max(0, (b.afterBodyBytes ?? 0) - seen.bodyBytesRead);
        const take = Math.min(want, buffered.length);
        seen.bodyBytesRead += take;
        current.remaining -= take;
        buffered = buffered.subarray(take);
        if (b.ending !== 'behave') {
          if (seen.bodyBytesRead >= (b.afterBodyBytes ?? 0) || current.remaining === 0) hangUp(b);
          return;
        }
        if (current.remaining > 0) return;
        answer(b);
        current = null;
        if (b.connectionClose) {
          done = true;
          socket.end();
        }
      }
    };

    socket.on('data', (chunk: Buffer) => {
      if (done) return;
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      step();
    });
  });
  server.on('error', () => {});
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    connections: () => accepted,
    close: () =>
      new Promise<void>((ok) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}
