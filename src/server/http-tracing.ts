/**
 * A server span per HTTP request (REST, GraphQL, the console), continuing the caller's W3C trace context,
 * and the OpenTelemetry `http.server.request.duration` histogram. Named and labelled by the matched route
 * template (`POST /api/v1/events`), never the raw path or query, which can carry tokens; no headers or bodies.
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Runtime } from '../runtime.js';
import { contextFrom } from '../tracing.js';

function routeOf(req: Request): string {
  return req.route?.path ? String(req.baseUrl + req.route.path) : req.baseUrl || 'other';
}

/** The middleware (a pass-through when telemetry is off). */
export function httpTracing(rt: Runtime): RequestHandler {
  const { telemetry } = rt;
  if (!telemetry.enabled) return (_req, _res, next) => next();
  const duration = telemetry.meter.createHistogram('http.server.request.duration', {
    unit: 's',
    description: 'Duration of HTTP server requests.',
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const parent = contextFrom(req.headers as Record<string, unknown>, context.active());
    const span = telemetry.tracer.startSpan(
      `${req.method}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': req.method,
          'url.scheme': req.protocol,
          'network.protocol.version': req.httpVersion,
        },
      },
      parent,
    );
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const route = routeOf(req);
      const status = res.writableFinished ? res.statusCode : 499;
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      duration.record((performance.now() - started) / 1000, {
        'http.request.method': req.method,
        'http.route': route,
        'http.response.status_code': status,
      });
    };
    res.on('finish', end);
    res.on('close', end);
    const active = trace.setSpan(parent, span);
    // Body parsers continue from the request stream's events, which run in the connection's context:
    // bound, their listeners run in the request's.
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, next);
  };
}
