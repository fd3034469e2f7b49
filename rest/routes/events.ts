/**
 * REST routes of the events area: ingest (POST /events), signed inbound webhooks, the timeline and its
 * live stream.
 *
 * POST /events and POST /webhooks/:slug are HandlerRoutes on purpose: ingest is the hot path (one
 * GraphQL execution per event would cost more than the INSERT it wraps), and the webhook needs the
 * raw body for its signature. Both still go through the same service, src/events/ingest.ts.
 * GET /events/stream is a stream, so it is a handler too. GET /events executes the `events` query.
 */
import type { RouteEntry } from '../route-types.js';
import { DomainError } from '../../src/errors.js';
import { acceptEvent } from '../../src/events/ingest.js';
import { acceptEventBatch } from '../../src/events/ingest-batch.js';
import { recordRejectedIngest } from '../../src/events/ingest-rejections.js';
import { eventIngestKeyAuth } from '../../src/events/ingest-auth.js';
import { webhookSignatureAuth } from '../../src/events/inbound-webhooks.js';
import { EVENT_FIELDS, presentEvent } from '../presenters/events.js';
import { nodesOf } from '../presenters/lists.js';
import { streamEvents } from '../../src/events/sse.js';
import { principalStillValid } from '../../src/auth/connection-credentials.js';
import { TIMELINE_LIMITS } from '../../src/events/filter.js';

function queryFilter(q: Record<string, unknown>) {
  return {
    module: (q.module as string | undefined) ?? null,
    severities: q.severity ? [q.severity as 'info' | 'warning' | 'critical'] : null,
  };
}

export const eventsRoutes: RouteEntry[] = [
  {
    method: 'post',
    path: '/events',
    auth: eventIngestKeyAuth,
    // parseEnvelope (src/events/envelope.ts) checks the body field by field with the same 422 shape;
    // an array is a batch of envelopes (src/events/ingest-batch.ts), answered per item.
    validatesOwnInput: true,
    handler: async (req, res) => {
      const ctx = req.ctx;
      try {
        if (Array.isArray(req.body)) {
          const { retryAfterSeconds, ...batch } = await acceptEventBatch(
            ctx,
            req.body as unknown[],
            `key:${ctx.principal!.credential.id}`,
          );
          if (retryAfterSeconds) res.setHeader('Retry-After', String(retryAfterSeconds));
          res.status(202).json(batch);
          return;
        }
        const { id } = await acceptEvent(ctx, { body: req.body, endpoint: 'events', via: 'ingest' });
        res.status(202).json({ id, status: 'accepted' });
      } catch (err) {
        if (err instanceof DomainError) recordRejectedIngest(ctx.rt, { tenantId: ctx.principal?.tenantId }, err);
        throw err;
      }
    },
  },
  {
    method: 'post',
    path: '/webhooks/:slug',
    auth: webhookSignatureAuth('events'),
    handler: async (req, res) => {
      const event = await acceptEvent(req.ctx, { body: req.body, endpoint: 'webhook', via: 'webhook' });
      res.status(202).json({ id: event.id, status: 'accepted', event: presentEvent(event) });
    },
  },
  {
    method: 'get',
    path: '/events',
    operation: `query Events($first: Int!, $filter: EventFilter) { events(first: $first, filter: $filter) { edges { node { ${EVENT_FIELDS} } } } }`,
    variables: (req) => ({
      first: Number(req.query.limit ?? TIMELINE_LIMITS.defaultLimit),
      filter: {
        ...queryFilter(req.query),
        since_hours: Number(req.query.since_hours ?? TIMELINE_LIMITS.defaultSinceHours),
      },
    }),
    respond: (data) => nodesOf(data.events, presentEvent),
  },
  {
    method: 'get',
    path: '/events/stream',
    variables: (req) => ({ filter: queryFilter(req.query) }),
    handler: async (req, res, vars) => {
      const header = req.headers['last-event-id'];
      const lastEventId =
        (Array.isArray(header) ? header[0] : header) ?? (req.query.last_event_id as string | undefined) ?? null;
      const principal = req.ctx.principal!;
      await streamEvents(req.ctx, req, res, {
        filter: vars.filter as ReturnType<typeof queryFilter>,
        lastEventId,
        credentialStillValid: () => principalStillValid(req.ctx.rt, principal),
        present: presentEvent,
      });
    },
  },
];
