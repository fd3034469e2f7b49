/** OTEL_* settings: export only with an endpoint, per-signal URLs, headers, sampler, and named errors. */
import { describe, expect, it } from 'vitest';
import { loadOtelConfig } from '../../src/config-otel.js';
import { ConfigError } from '../../src/config-env.js';

describe('OpenTelemetry settings', () => {
  it('is off without an endpoint', () => {
    const c = loadOtelConfig({});
    expect(c.tracesUrl).toBeUndefined();
    expect(c.metricsUrl).toBeUndefined();
    expect(c.serviceName).toBe('ops-service');
  });

  it('derives the signal URLs from OTEL_EXPORTER_OTLP_ENDPOINT, and a per-signal endpoint wins', () => {
    const c = loadOtelConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://metrics:9000/otlp',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D,tenant=ops',
      OTEL_SERVICE_NAME: 'ops-eu',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod',
    });
    expect(c.tracesUrl).toBe('http://collector:4318/v1/traces');
    expect(c.metricsUrl).toBe('http://metrics:9000/otlp');
    expect(c.headers).toEqual({ 'x-api-key': 'abc=', tenant: 'ops' });
    expect(c.serviceName).toBe('ops-eu');
    expect(c.resourceAttributes).toEqual({ 'deployment.environment': 'prod' });
  });

  it('OTEL_SDK_DISABLED=true turns export off', () => {
    expect(loadOtelConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).tracesUrl).toBe(
      undefined,
    );
  });

  it('reads the sampler', () => {
    expect(loadOtelConfig({}).sampleRatio).toBe(1);
    expect(loadOtelConfig({ OTEL_TRACES_SAMPLER: 'always_off' }).sampleRatio).toBe(0);
    expect(
      loadOtelConfig({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).sampleRatio,
    ).toBe(0.25);
  });

  it('names the variable of a bad value', () => {
    expect(() => loadOtelConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://c:4317' })).toThrow(ConfigError);
    expect(() => loadOtelConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://c:4317' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(() => loadOtelConfig({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => loadOtelConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS/);
  });
});
