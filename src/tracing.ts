/**
 * Tracing as the rest of the code sees it: the runtime's tracer (a no-op one unless OTLP export is on,
 * src/server/telemetry.ts), and the one way a trace crosses a queue: the enqueuing context's W3C
 * `traceparent` travels in the job's data (never anything else of the request), and the worker's span
 * continues that trace. Attributes name ids, routes and outcomes, never secrets or payloads.
 */
import {
  context,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Meter,
  type Span,
  type Tracer,
  metrics,
  isSpanContextValid,
  TraceFlags,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

export interface Telemetry {
  tracer: Tracer;
  meter: Meter;
  /** True when spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT set). */
  enabled: boolean;
}

/** No export: the API's no-op tracer and meter (nothing is recorded, nothing allocated per call). */
export const noTelemetry: Telemetry = {
  tracer: trace.getTracerProvider().getTracer('ops-service'),
  meter: metrics.getMeterProvider().getMeter('ops-service'),
  enabled: false,
};

const propagator = new W3CTraceContextPropagator();
const setter = { set: (c: Record<string, string>, k: string, v: string) => (c[k] = v) };
const getter = {
  get: (c: Record<string, unknown>, k: string) => (typeof c[k] === 'string' ? c[k] : undefined),
  keys: (c: Record<string, unknown>) => Object.keys(c),
};

/** The W3C `traceparent` of the active (or continued remote) span when it is sampled; else undefined. */
export function activeTraceparent(ctx: Context = context.active()): string | undefined {
  const sc = trace.getSpanContext(ctx);
  if (!sc || !isSpanContextValid(sc) || (sc.traceFlags & TraceFlags.SAMPLED) === 0) return undefined;
  const carrier: Record<string, string> = {};
  propagator.inject(ctx, carrier, setter);
  return carrier.traceparent;
}

/** `data` with the active trace's `traceparent` added (unchanged when nothing is traced). */
export function withTraceparent<T extends object>(data: T): T {
  const traceparent = activeTraceparent();
  return traceparent ? { ...data, traceparent } : data;
}

/** The context a carrier (HTTP headers, job data) continues: its `traceparent`/`tracestate`, if valid. */
export function contextFrom(carrier: Record<string, unknown>, parent: Context = context.active()): Context {
  return propagator.extract(parent, carrier, getter);
}

/**
 * Runs `fn` in a new active span (ended when `fn` settles; an error is recorded and rethrown). `parent`
 * defaults to the active context.
 */
export async function inSpan<T>(
  tracer: Tracer,
  name: string,
  opts: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes },
    opts.parent ?? context.active(),
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        // BullMQ's DelayedError is control flow (a job moved to later), not a failure.
        if (err instanceof Error && err.name === 'DelayedError') throw err;
        span.recordException(err instanceof Error ? { name: err.name, message: err.message } : String(err));
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * A BullMQ job's processing as a consumer span that continues the trace of whoever enqueued it
 * (`traceparent` in its data); a job enqueued outside a trace (a sweeper, a schedule) starts its own.
 */
export function inJobSpan<T>(
  telemetry: Telemetry,
  queue: string,
  job: { id?: string; name: string; data: unknown; attemptsMade: number },
  fn: () => Promise<T>,
): Promise<T> {
  if (!telemetry.enabled) return fn();
  const data = (job.data ?? {}) as Record<string, unknown>;
  const parent = contextFrom({ traceparent: data.traceparent }, context.active());
  return inSpan(
    telemetry.tracer,
    `${queue} process`,
    {
      kind: SpanKind.CONSUMER,
      parent,
      attributes: {
        'messaging.system': 'bullmq',
        'messaging.operation.type': 'process',
        'messaging.destination.name': queue,
        'messaging.message.id': job.id ?? '',
        'bullmq.job.attempts_made': job.attemptsMade,
      },
    },
    () => fn(),
  );
}

export { SpanKind, SpanStatusCode };
