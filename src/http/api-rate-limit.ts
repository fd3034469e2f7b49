/**
 * The API-wide request limit, which SPEC leaves to us: API_RATE_PER_MINUTE requests (default 6000, 100 a
 * second) per credential on /api/v1 and /graphql, counted in Redis so it holds across nodes. The credential is
 * whatever the request presents (bearer token, ingest key, session cookie), hashed, so a wrong token is counted
 * too and the limiter needs no database; a request with none is counted by client address. Every answer
 * carries the IETF draft headers `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds), and
 * past the budget a 429 adds `Retry-After`. SPEC's own limits (ingest per key, inbound webhooks) are counted
 * separately by their routes.
 */
import crypto from 'node:crypto';
import type express from 'express';
import { RateLimiterRes, type RateLimiterRedis } from 'rate-limiter-flexible';
import type { Runtime } from '../runtime.js';
import { RateLimited } from '../errors.js';
import { redisLimiter } from '../limiter.js';
import { restError } from './error-mapping.js';

declare module '../runtime.js' {
  interface RuntimeParts {
    apiRateLimiter: RateLimiterRedis;
  }
}

/** Builds the runtime's API limiter (src/server/runtime-parts.ts, before any traffic). */
export function createApiRateLimiter(rt: Runtime): RateLimiterRedis {
  return redisLimiter(rt, 'api', rt.config.apiRatePerMinute, 60);
}

const SESSION_COOKIE = /(?:^|;\s*)ops_session=([^;]+)/;

/** What the request is counted against: a hash of its credential, else its client address. */
export function rateKey(req: express.Request): string {
  const credential =
    req.headers.authorization ??
    (req.headers['x-service-key'] as string | undefined) ??
    SESSION_COOKIE.exec(req.headers.cookie ?? '')?.[1];
  if (!credential) return `ip:${req.ip ?? 'unknown'}`;
  return `cred:${crypto.createHash('sha256').update(credential).digest('base64url').slice(0, 22)}`;
}

function setHeaders(res: express.Response, limit: number, state: RateLimiterRes): void {
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, state.remainingPoints)));
  res.setHeader('RateLimit-Reset', String(Math.max(1, Math.ceil(state.msBeforeNext / 1000))));
}

/** The middleware: counts the request, sets the headers, and answers 429 past the budget. */
export function apiRateLimit(rt: Runtime): express.RequestHandler {
  const limit = rt.config.apiRatePerMinute;
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    rt.parts.apiRateLimiter.consume(rateKey(req)).then(
      (state) => {
        setHeaders(res, limit, state);
        next();
      },
      (err: unknown) => {
        if (!(err instanceof RateLimiterRes)) return next(err);
        setHeaders(res, limit, err);
        const e = restError(
          new RateLimited(
            Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
            `More than ${limit} requests a minute with this credential (API_RATE_PER_MINUTE); retry after Retry-After seconds.`,
          ),
        );
        for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
        res.status(e.status).json(e.body);
      },
    );
  };
}
