/**
 * OpenTelemetry export against a real OTLP/HTTP receiver on 127.0.0.1 that decodes the protobuf with the
 * official definitions (opentelemetry-proto, as generated for @opentelemetry/otlp-transformer): one
 * `POST /events` whose alert sends a delivery is one connected trace, from the request through the
 * evaluation job and the fan-out to the delivery, with Prisma and Redis spans inside it; no attribute
 * carries the event's payload or a secret. Without an endpoint nothing is exported.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql } from './helpers/http.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

interface ProtoRoot {
  opentelemetry: {
    proto: {
      collector: {
        trace: {
          v1: {
            ExportTraceServiceRequest: { decode(b: Uint8Array): unknown; toObject(m: unknown, o: object): unknown };
          };
        };
        metrics: {
          v1: {
            ExportMetricsServiceRequest: { decode(b: Uint8Array): unknown; toObject(m: unknown, o: object): unknown };
          };
        };
      };
    };
  };
}
const root = createRequire(import.meta.url)('otlp-proto-root/build/src/generated/root.js') as ProtoRoot;
const { trace: traceProto, metrics: metricsProto } = root.opentelemetry.proto.collector;

interface KeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string; boolValue?: boolean; doubleValue?: number };
}
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
}
interface Collected {
  spans: Span[];
  metricNames: Set<string>;
  serviceNames: Set<string>;
  close(): Promise<void>;
  url: string;
}

/** An OTLP/HTTP receiver: POST /v1/traces and /v1/metrics with protobuf bodies, decoded and kept. */
async function startCollector(): Promise<Collected> {
  const spans: Span[] = [];
  const metricNames = new Set<string>();
  const serviceNames = new Set<string>();
  const toObject = { longs: String, bytes: String, enums: Number, defaults: false };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.headers['content-type'] !== 'application/x-protobuf') return void res.writeHead(415).end();
      if (req.url === '/v1/traces') {
        const T = traceProto.v1.ExportTraceServiceRequest;
        const msg = T.toObject(T.decode(body), { ...toObject, bytes: String }) as {
          resourceSpans?: Array<{
            resource?: { attributes?: KeyValue[] };
            scopeSpans?: Array<{ spans?: Span[] }>;
          }>;
        };
        for (const rs of msg.resourceSpans ?? []) {
          const svc = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue;
          if (svc) serviceNames.add(svc);
          for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
        }
      } else if (req.url === '/v1/metrics') {
        const M = metricsProto.v1.ExportMetricsServiceRequest;
        const msg = M.toObject(M.decode(body), toObject) as {
          resourceMetrics?: Array<{ scopeMetrics?: Array<{ metrics?: Array<{ name: string }> }> }>;
        };
        for (const rm of msg.resourceMetrics ?? [])
          for (const sm of rm.scopeMetrics ?? []) for (const m of sm.metrics ?? []) metricNames.add(m.name);
      } else return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    spans,
    metricNames,
    serviceNames,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function attr(s: Span, key: string): string | undefined {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? v?.intValue ?? (v?.boolValue !== undefined ? String(v.boolValue) : undefined);
}

let collector: Collected;
let s: TestServer;
let t: BuiltTenant;
let receiver: Receiver;

beforeAll(async () => {
  collector = await startCollector();
  s = await startTestServer({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'ops-under-test',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
      WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
      // Every resolver gets a span here; one test raises the threshold to see slow-only.
      TRACING_RESOLVER_MIN_MS: '0',
    },
  });
  t = await buildTenant(s.app.rt);
  receiver = await startReceiver();
});
afterAll(async () => {
  await s?.stop();
  await receiver?.close();
  await collector?.close();
});

describe('OpenTelemetry export', () => {
  it('one ingested event whose alert sends a delivery is one connected trace, without payloads or secrets', async () => {
    const secretPayload = `payload-${Math.random().toString(36).slice(2)}`;
    const rule = await gql<{ createAlertRule: { id: string } }>(
      s.url,
      t.adminToken,
      'mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }',
      { input: { name: 'disk', typeGlob: 'node.disk_*', alertSeverity: 'CRITICAL' } },
    );
    expect(rule.errors).toBeUndefined();
    const hook = await gql<{ createOutboundWebhook: { id: string; secret: string } }>(
      s.url,
      t.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id secret } }',
      { input: { name: 'r', url: receiver.url, triggers: [{ on: 'ALERT_OPENED' }] } },
    );
    expect(hook.errors).toBeUndefined();

    const res = await fetch(`${s.url}/api/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-key': t.ingestKey },
      body: JSON.stringify({
        type: 'node.disk_full',
        source: 'otel-test',
        summary: secretPayload,
        severity: 'critical',
        payload: { detail: secretPayload },
      }),
    });
    expect(res.status).toBe(202);
    await eventually(
      async () => receiver.requests.some((r) => r.headers['x-service-event'] === 'alert.opened'),
      30_000,
    );

    // The delivery's span, then its ancestors up to the request's server span, all in one trace.
    const delivery = await eventually(
      async () =>
        collector.spans.find(
          (sp) => sp.name === 'webhook delivery' && attr(sp, 'ops.webhook.id') === hook.data!.createOutboundWebhook.id,
        ),
      30_000,
    );
    const trace = await eventually(async () => {
      const inTrace = collector.spans.filter((sp) => sp.traceId === delivery.traceId);
      const byId = new Map(inTrace.map((sp) => [sp.spanId, sp]));
      const chain: Span[] = [];
      for (let cur: Span | undefined = delivery; cur; cur = cur.parentSpanId ? byId.get(cur.parentSpanId) : undefined)
        chain.push(cur);
      const rootSpan = chain[chain.length - 1];
      return !rootSpan.parentSpanId ? { inTrace, chain } : undefined;
    }, 30_000);
    const names = trace.chain.map((sp) => sp.name).reverse();
    expect(names[0]).toBe('POST /api/v1/events');
    expect(names).toContain('evaluate process');
    expect(names).toContain('outbox process');
    expect(names[names.length - 1]).toBe('webhook delivery');
    const server = trace.chain[trace.chain.length - 1];
    expect(attr(server, 'http.route')).toBe('/api/v1/events');
    expect(attr(server, 'http.response.status_code')).toBe('202');
    expect(attr(delivery, 'http.response.status_code')).toBe('200');
    expect(attr(delivery, 'server.address')).toBe(new URL(receiver.url).host);

    // Prisma and Redis spans belong to the same trace (the evaluation's queries, the job's commands).
    expect(trace.inTrace.some((sp) => sp.name.startsWith('prisma:'))).toBe(true);
    await eventually(
      async () =>
        collector.spans.some(
          (sp) =>
            sp.traceId === delivery.traceId &&
            (attr(sp, 'db.system') === 'redis' || attr(sp, 'db.system.name') === 'redis'),
        ),
      30_000,
    );

    // Nothing of the event's payload, the ingest key or the webhook secret in any attribute of any span.
    const everything = JSON.stringify(collector.spans);
    expect(everything).not.toContain(secretPayload);
    expect(everything).not.toContain(t.ingestKey);
    expect(everything).not.toContain(hook.data!.createOutboundWebhook.secret);
    expect(collector.serviceNames).toContain('ops-under-test');
  });

  it('names GraphQL operations on the request span and in their own span', async () => {
    await gql(s.url, t.adminToken, 'query TelemetryProbe { me { id } }');
    const op = await eventually(async () => collector.spans.find((sp) => sp.name === 'query TelemetryProbe'), 30_000);
    const parent = await eventually(async () => collector.spans.find((sp) => sp.spanId === op.parentSpanId), 30_000);
    expect(parent.name).toBe('POST /graphql');
    expect(attr(parent, 'graphql.operation.name')).toBe('TelemetryProbe');
  });

  it('gives resolvers over the threshold their own span, with their path and without arguments', async () => {
    const argument = `arg-${Math.random().toString(36).slice(2)}`;
    const res = await gql(
      s.url,
      t.adminToken,
      'query ResolverProbe($id: ID!) { me { id email } node(id: $id) { id } }',
      {
        id: argument,
      },
    );
    expect(res.errors).toBeUndefined();
    const op = await eventually(async () => collector.spans.find((sp) => sp.name === 'query ResolverProbe'), 30_000);
    const me = await eventually(
      async () => collector.spans.find((sp) => sp.name === 'resolve Query.me' && sp.parentSpanId === op.spanId),
      30_000,
    );
    expect(attr(me, 'graphql.field.path')).toBe('me');
    expect(attr(me, 'graphql.parent_type')).toBe('Query');
    const node = collector.spans.find((sp) => sp.name === 'resolve Query.node' && sp.traceId === op.traceId);
    expect(node).toBeDefined();
    expect(JSON.stringify(collector.spans)).not.toContain(argument);

    // Above the threshold only: with a minute's threshold, no resolver of a quick query gets a span.
    s.app.rt.config.otel.resolverSpanMinMs = 60_000;
    try {
      await gql(s.url, t.adminToken, 'query ResolverQuiet { me { id email } }');
      const quiet = await eventually(
        async () => collector.spans.find((sp) => sp.name === 'query ResolverQuiet'),
        30_000,
      );
      // Resolver spans end before their operation's, so they would be exported by now.
      expect(collector.spans.filter((sp) => sp.traceId === quiet.traceId && sp.name.startsWith('resolve '))).toEqual(
        [],
      );
    } finally {
      s.app.rt.config.otel.resolverSpanMinMs = 0;
    }
  });

  it('exports the HTTP request duration metric', async () => {
    await eventually(async () => collector.metricNames.has('http.server.request.duration'), 30_000);
  });

  it('exports nothing without an endpoint', async () => {
    const quiet = await startTestServer();
    try {
      expect(quiet.app.rt.telemetry.enabled).toBe(false);
    } finally {
      await quiet.stop();
    }
  });
});
