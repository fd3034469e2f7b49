/**
 * OpenTelemetry settings from the standard OTEL_* variables (the OpenTelemetry specification's names):
 * traces and metrics are exported over OTLP/HTTP (protobuf) only when an endpoint is set.
 */
import { ConfigError, int } from './config-env.js';

export interface OtelConfig {
  /** Where spans go (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces); unset: off. */
  tracesUrl?: string;
  /** Where metrics go (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/metrics). */
  metricsUrl?: string;
  /** OTEL_EXPORTER_OTLP_HEADERS: `key=value,key2=value2` sent with every export (a collector's API key). */
  headers: Record<string, string>;
  /** OTEL_SERVICE_NAME (default `ops-service`). */
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES: `key=value,...` added to the resource. */
  resourceAttributes: Record<string, string>;
  /** OTEL_TRACES_SAMPLER_ARG with OTEL_TRACES_SAMPLER=parentbased_traceidratio|traceidratio: the share of new traces kept. */
  sampleRatio: number;
  /** OTEL_METRIC_EXPORT_INTERVAL (ms, default 60000). */
  metricExportIntervalMs: number;
  /** TRACING_RESOLVER_MIN_MS: a GraphQL resolver this slow or slower gets its own span (default 10; 0: all). */
  resolverSpanMinMs: number;
}

function keyValues(raw: string | undefined, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (raw ?? '').split(',')) {
    if (!part.trim()) continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new ConfigError(`${name} must be key=value pairs separated by commas, got "${part.trim()}".`);
    out[decodeURIComponent(part.slice(0, eq).trim())] = decodeURIComponent(part.slice(eq + 1).trim());
  }
  return out;
}

function signalUrl(env: NodeJS.ProcessEnv, specific: string, path: string): string | undefined {
  const own = env[specific]?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const raw = own || (base ? `${base.replace(/\/+$/, '')}${path}` : undefined);
  if (!raw) return undefined;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new ConfigError(`${own ? specific : 'OTEL_EXPORTER_OTLP_ENDPOINT'} must be an http(s) URL, got "${raw}".`);
  }
  return raw;
}

function sampleRatio(env: NodeJS.ProcessEnv): number {
  const sampler = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim();
  if (sampler === 'always_off' || sampler === 'parentbased_always_off') return 0;
  if (sampler === 'always_on' || sampler === 'parentbased_always_on') return 1;
  if (sampler !== 'traceidratio' && sampler !== 'parentbased_traceidratio')
    throw new ConfigError(
      `OTEL_TRACES_SAMPLER must be always_on, always_off, traceidratio or their parentbased_ forms, got "${sampler}".`,
    );
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  if (!(arg >= 0 && arg <= 1)) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be between 0 and 1.`);
  return arg;
}

export function loadOtelConfig(env: NodeJS.ProcessEnv): OtelConfig {
  const disabled = (env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true';
  return {
    tracesUrl: disabled ? undefined : signalUrl(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '/v1/traces'),
    metricsUrl: disabled ? undefined : signalUrl(env, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', '/v1/metrics'),
    headers: keyValues(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS'),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'ops-service',
    resourceAttributes: keyValues(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES'),
    sampleRatio: sampleRatio(env),
    metricExportIntervalMs: int(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000, 100),
    resolverSpanMinMs: int(env, 'TRACING_RESOLVER_MIN_MS', 10, 0),
  };
}
