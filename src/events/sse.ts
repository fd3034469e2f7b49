/**
 * GET /events/stream: the timeline as server-sent events (docs/design.md).
 *
 *   id: <event id>
 *   event: event
 *   data: <the event as GET /events shows it, JSON: the caller's `present`>
 *
 * - Fed from Redis pubsub (`eventAdded`), so an event accepted on any node reaches every stream.
 * - `Last-Event-ID` (header, as EventSource sends it on reconnect, or the `last_event_id` query
 *   parameter for a first connect) replays the stored events after that id from the database first;
 *   live events that arrive meanwhile are held and de-duplicated, so nothing is missed or doubled.
 * - A `: heartbeat` comment every config.sseHeartbeatMs keeps proxies from closing an idle stream. At
 *   each heartbeat the credential is checked again: a stream whose PAT was revoked (or whose session
 *   was logged out) is ended, and the client's reconnect gets 401.
 * - Writes are never awaited. A client whose unsent buffer passes MAX_BUFFERED_BYTES is disconnected;
 *   its EventSource reconnects with Last-Event-ID and catches up from the database. Ingest never waits
 *   for a reader.
 */
import type { Request, Response } from 'express';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { eventsAfter, timelineWhere, type StreamedEvent } from './timeline.js';
import { matchesEventFilter, type EventFilter } from './filter.js';
import type { SerializedEvent } from './announce.js';

/** Unsent bytes a stream may hold before the client is considered too slow and cut off. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Reconnection delay suggested to clients (SSE `retry:`). */
const RETRY_MS = 2000;

/**
 * Serves the stream until the client goes away. Resolves once the stream is set up (replay written);
 * the connection stays open afterwards.
 */
export async function streamEvents(
  ctx: Ctx,
  req: Request,
  res: Response,
  input: {
    filter: EventFilter;
    lastEventId?: string | null;
    credentialStillValid?: () => Promise<boolean>;
    /** The REST shape of an event (the route passes rest/presenters/events.ts). */
    present: (e: StreamedEvent) => unknown;
  },
): Promise<void> {
  const me = requireUser(ctx);
  timelineWhere(input.filter, ctx.rt.clock.now()); // 422 (`['filter', …]`) before the stream starts
  const sent = new Set<string>();
  let replaying = true;
  const held: SerializedEvent[] = [];
  let closed = false;

  res.status(200);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache, no-transform');
  res.setHeader('connection', 'keep-alive');
  res.setHeader('x-accel-buffering', 'no');
  res.flushHeaders();
  req.socket.setNoDelay(true);

  const write = (chunk: string) => {
    if (closed) return;
    res.write(chunk);
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      ctx.rt.logger.warn(
        { userId: me.userId, buffered: res.writableLength },
        'SSE client too slow; disconnecting (it resumes with Last-Event-ID)',
      );
      stop();
      res.destroy();
    }
  };
  const send = (e: StreamedEvent) => {
    if (sent.has(e.id)) return;
    sent.add(e.id);
    if (sent.size > 10_000) sent.clear(); // only needed to de-duplicate the replay seam
    write(`id: ${e.id}\nevent: event\ndata: ${JSON.stringify(input.present(e))}\n\n`);
  };

  const live = ctx.rt.pubsub.subscribe('eventAdded', me.tenantId);
  let checking = false;
  const heartbeat = setInterval(() => {
    write(': heartbeat\n\n');
    if (!input.credentialStillValid || checking || closed) return;
    checking = true;
    void input
      .credentialStillValid()
      .then((valid) => {
        if (valid || closed) return;
        stop();
        res.end();
      })
      .catch((err: unknown) => ctx.rt.logger.warn({ err }, 'SSE credential check failed'))
      .finally(() => (checking = false));
  }, ctx.rt.config.sseHeartbeatMs);
  function stop() {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    void live.return?.();
  }
  req.on('close', stop);
  res.on('close', stop);
  // A write that races the client's disconnect can make the response emit 'error' (e.g. write after
  // end): it only ends this stream, so it is logged at debug level instead of being left unhandled.
  res.on('error', (err) => {
    ctx.rt.logger.debug({ err: err.message }, 'SSE stream error');
    stop();
  });

  // Consume live events from now on; while the replay runs they are held back.
  void (async () => {
    try {
      for await (const payload of live) {
        const e = payload as SerializedEvent;
        if (!matchesEventFilter(e, input.filter, ctx.rt.clock.now())) continue;
        if (replaying) held.push(e);
        else send(e);
      }
    } catch (err) {
      ctx.rt.logger.warn({ err }, 'SSE subscription ended with an error');
      stop();
      res.end();
    }
  })();

  write(`retry: ${RETRY_MS}\n: connected\n\n`);
  try {
    if (input.lastEventId) for (const e of await eventsAfter(ctx, input.lastEventId, input.filter)) send(e);
  } finally {
    replaying = false;
    for (const e of held.splice(0)) send(e);
  }
}
