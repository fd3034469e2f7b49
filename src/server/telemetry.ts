/**
 * OpenTelemetry export, on only when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT and the
 * other standard OTEL_* variables, src/config-otel.ts): traces and metrics over OTLP/HTTP (protobuf).
 *
 * The providers belong to this runtime, not to the process: nothing is registered as the global tracer
 * or meter provider (test files share processes, and a second runtime must not report into the first's).
 * Process-wide are only what cannot be otherwise: the async-local context manager (spans follow awaits),
 * Prisma's tracing hook (its client reads a global), and ioredis's `sendCommand` wrapper; all three are
 * undone by `shutdown()`.
 *
 * Spans: HTTP requests (http-tracing.ts), GraphQL operations by name (graphql-tracing.ts),
 * Prisma queries (@prisma/instrumentation), Redis commands inside a traced operation (ioredis
 * instrumentation, without arguments), BullMQ jobs continuing the trace that enqueued them (src/tracing.ts),
 * outbound deliveries (src/deliveries/attempt.ts).
 */
import { createRequire } from 'node:module';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import type { OtelConfig } from '../config-otel.js';
import { noTelemetry, type Telemetry } from '../tracing.js';
import { PROJECT_ROOT } from '../project-root.js';

export interface TelemetryHandle {
  telemetry: Telemetry;
  /** Flushes what is buffered and undoes the process-wide hooks. */
  shutdown(): Promise<void>;
}

const require = createRequire(import.meta.url);

function serviceVersion(): string {
  try {
    return (require(`${PROJECT_ROOT}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Starts export when `otel.tracesUrl` or `otel.metricsUrl` is set; else the no-op telemetry. */
export function startTelemetry(otel: OtelConfig): TelemetryHandle {
  if (!otel.tracesUrl && !otel.metricsUrl) return { telemetry: noTelemetry, shutdown: async () => {} };
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_VERSION]: serviceVersion(),
    ...otel.resourceAttributes,
    [ATTR_SERVICE_NAME]: otel.serviceName,
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const ownsContext = context.setGlobalContextManager(contextManager);
  const undo: Array<() => void | Promise<void>> = [];
  if (ownsContext) undo.push(() => context.disable());

  const tracerProvider = new NodeTracerProvider({
    resource,
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(otel.sampleRatio) }),
    spanProcessors: otel.tracesUrl
      ? [new BatchSpanProcessor(new OTLPTraceExporter({ url: otel.tracesUrl, headers: otel.headers }))]
      : [],
  });
  undo.push(() => tracerProvider.shutdown());
  const meterProvider = new MeterProvider({
    resource,
    readers: otel.metricsUrl
      ? [
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter({ url: otel.metricsUrl, headers: otel.headers }),
            exportIntervalMillis: otel.metricExportIntervalMs,
            exportTimeoutMillis: Math.min(30_000, otel.metricExportIntervalMs),
          }),
        ]
      : [],
  });
  undo.push(() => meterProvider.shutdown());

  if (otel.tracesUrl) {
    // Prisma's spans: the client reads one process-wide hook. Query text has placeholders, never values.
    const prismaTracing = new PrismaInstrumentation({ enabled: false, ignoreSpanTypes: ['prisma:client:serialize'] });
    prismaTracing.setTracerProvider(tracerProvider);
    prismaTracing.enable();
    undo.push(() => prismaTracing.disable());
    // Redis commands inside a traced operation; the statement is the command's name only (no keys, no values).
    const redisTracing = new IORedisInstrumentation({
      enabled: false,
      requireParentSpan: true,
      dbStatementSerializer: (command) => command,
    });
    redisTracing.setTracerProvider(tracerProvider);
    // The ES module build of this service imports ioredis, which require-hooks never see: patch the one
    // shared CommonJS module object by hand (the same prototype every import of ioredis uses).
    const ioredis = require('ioredis') as unknown;
    const version = (require('ioredis/package.json') as { version: string }).version;
    for (const def of redisTracing.getModuleDefinitions()) {
      def.patch?.(ioredis, version);
      undo.push(() => def.unpatch?.(ioredis, version));
    }
  }

  const telemetry: Telemetry = {
    tracer: tracerProvider.getTracer('ops-service', serviceVersion()),
    meter: meterProvider.getMeter('ops-service', serviceVersion()),
    enabled: !!otel.tracesUrl,
  };
  let done: Promise<void> | undefined;
  return {
    telemetry,
    shutdown: () =>
      (done ??= (async () => {
        for (const fn of undo.reverse()) await fn();
      })()),
  };
}
