/**
 * PagerDuty's own path at the site root (not under /api/v1): `POST /v2/enqueue` (Events API v2 trigger,
 * acknowledge, resolve) and `POST /v2/change/enqueue` (change events), so PagerDuty's SDKs and tools that
 * let only the host change (`@pagerduty/pdjs` `event({ server })`, most clients) reach a `pagerduty`
 * integration by its `routing_key` (src/integrations/pagerduty-path.ts). Every answer has PagerDuty's
 * shape, errors included: 202 `{status: "success", message, dedup_key}`; 400 `{status: "invalid event",
 * message, errors}` for a body it cannot take or an invalid routing key; 429 `{status: "throttle event",
 * message}` with Retry-After; 413 for a body over the limit. Documented in docs/pagerduty.md.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Runtime } from '../src/runtime.js';
import { createCtx } from '../src/context.js';
import { DomainError, InternalError } from '../src/errors.js';
import { restError } from '../src/http/error-mapping.js';
import { bodyReadError, isClientAbort } from '../src/http/body-errors.js';
import { restInputGuard } from '../src/http/input-guards.js';
import { receivePush, type PushAnswer } from '../src/integrations/push.js';
import { pagerDutyRoutingKeyAuth, receivePagerDutyChange } from '../src/integrations/pagerduty-path.js';
import type { Ctx } from '../src/context.js';

/** PagerDuty's answer to a failure: its status and body for our typed error. */
export function pagerDutyError(err: DomainError): {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
} {
  const { status, headers } = restError(err);
  if (err.code === 'RATE_LIMITED')
    return {
      status: 429,
      headers,
      body: {
        status: 'throttle event',
        message: 'Requests for this service are arriving too quickly. Please retry later.',
      },
    };
  if (status === 413)
    return {
      status,
      headers,
      body: { status: 'invalid event', message: 'Request body is too large', errors: [err.message] },
    };
  if (status >= 500) return { status, headers, body: { status: 'error', message: 'Internal server error' } };
  const errors = err.extra.fields?.length
    ? err.extra.fields.map((f) => `'${f.loc.join('.') || 'body'}' ${f.msg}`)
    : [err.code === 'UNAUTHENTICATED' ? 'Invalid routing key' : err.message];
  return { status: 400, headers, body: { status: 'invalid event', message: 'Event object is invalid', errors } };
}

/** The router of `/v2/enqueue` and `/v2/change/enqueue`, mounted at the site root. */
export function pagerDutyEventsRouter(rt: Runtime): Router {
  const router = express.Router();
  const route =
    (receive: (ctx: Ctx, body: unknown) => Promise<PushAnswer>) =>
    async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      try {
        const principal = await pagerDutyRoutingKeyAuth(rt, req.body);
        const requestId = String((req as Request & { id?: unknown }).id ?? req.headers['x-request-id'] ?? '');
        const answer = await receive(createCtx(rt, principal, requestId, req.ip ?? null), req.body);
        res.status(answer.status).json(answer.body);
      } catch (err) {
        next(err);
      }
    };
  // PagerDuty's clients send `application/json; charset=utf-8`; a body of another type is an invalid event.
  const json = express.json({ limit: rt.config.bodyLimitBytes, type: () => true });
  router.post('/v2/enqueue', json, restInputGuard, route(receivePush));
  router.post('/v2/change/enqueue', json, restInputGuard, route(receivePagerDutyChange));
  router.use('/v2', (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isClientAbort(err)) return;
    let domain = err instanceof DomainError ? err : bodyReadError(err, rt.config.bodyLimitBytes);
    if (!domain) {
      rt.logger.error({ err, path: req.path }, 'unexpected error');
      domain = new InternalError();
    }
    const answer = pagerDutyError(domain);
    for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
    res.status(answer.status).json(answer.body);
  });
  return router;
}
