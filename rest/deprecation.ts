/**
 * RFC 9745 `Deprecation` and RFC 8594 `Sunset` headers for operations the contract marks
 * `deprecated: true` (docs/api-evolution.md): `x-deprecated-at` is the day it was deprecated, `x-sunset`
 * the day after which it may be removed (at least 90 days later), `x-replaced-by` the path to use instead (a `Link: <…>; rel="successor-version"`).
 */
import type { NextFunction, Request, Response } from 'express';

type Operation = Record<string, unknown> | undefined;

/** The headers a deprecated operation answers with (none for an operation that is not deprecated). */
export function deprecationHeaders(op: Operation): Record<string, string> {
  if (!op || op.deprecated !== true) return {};
  const headers: Record<string, string> = {};
  const at = Date.parse(String(op['x-deprecated-at'] ?? ''));
  // RFC 9745: a Structured Field Date, seconds since the epoch after `@`; `true` would be RFC 9745's draft form.
  if (Number.isFinite(at)) headers.Deprecation = `@${Math.floor(at / 1000)}`;
  const sunset = Date.parse(String(op['x-sunset'] ?? ''));
  if (Number.isFinite(sunset)) headers.Sunset = new Date(sunset).toUTCString();
  return headers;
}

/** Middleware setting those headers on every answer of the operation, errors included (null when none). */
export function deprecationMiddleware(
  op: Operation,
): ((req: Request, res: Response, next: NextFunction) => void) | null {
  const headers = deprecationHeaders(op);
  if (!Object.keys(headers).length) return null;
  const successor = typeof op?.['x-replaced-by'] === 'string' ? op['x-replaced-by'] : null;
  return (req, res, next) => {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    // The replacement for this very request: `{provider}` filled in from the request's path.
    if (successor) {
      const url = successor.replace(/\{(\w+)\}/g, (_m, name: string) =>
        encodeURIComponent(String(req.params[name] ?? '')),
      );
      res.setHeader('Link', `<${url}>; rel="successor-version"`);
    }
    next();
  };
}
