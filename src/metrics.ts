/**
 * Prometheus metrics (prom-client). One registry per process; areas register their own counters here.
 */
import { Registry, collectDefaultMetrics, Histogram, Counter, Gauge } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const eventsAccepted = new Counter({
  name: 'events_accepted_total',
  help: 'Events durably stored, by how they arrived',
  labelNames: ['via'] as const,
  registers: [registry],
});

export const eventsIngestRejected = new Counter({
  name: 'events_ingest_rejected_total',
  help: 'Ingest requests (POST /events) and batch items refused, by HTTP status (401, 422, 429) and reason',
  labelNames: ['status', 'reason'] as const,
  registers: [registry],
});

export const eventsEvaluationSetAside = new Counter({
  name: 'events_evaluation_set_aside_total',
  help: 'Events whose rule evaluation failed MAX_EVALUATION_ATTEMPTS times and were set aside with their error',
  registers: [registry],
});

export const eventsEvaluationDeferred = new Counter({
  name: 'events_evaluation_deferred_total',
  help: 'Events left to a later evaluate job because their tenant had used its evaluation budget (EVALUATE_TENANT_BUDGET_MS)',
  registers: [registry],
});

export const evaluationBudgetExceeded = new Counter({
  name: 'evaluation_tenant_budget_exceeded_total',
  help: 'Windows in which a tenant used its rule-evaluation budget and had events deferred (once per tenant per window per process)',
  registers: [registry],
});

export const eventsEvaluationFailures = new Counter({
  name: 'events_evaluation_failures_total',
  help: 'Failed evaluation attempts of single events (each is retried until it is set aside)',
  registers: [registry],
});

export const reportsReplicaLag = new Gauge({
  name: 'reports_replica_lag_seconds',
  help: 'How far the reports database (REPORTS_DATABASE_URL) is behind the primary; 0 on the primary; -1 when it cannot be read',
  registers: [registry],
});

export const graphqlExecutions = new Counter({
  name: 'graphql_executions_total',
  help: 'GraphQL queries and mutations run, by executor: compiled (graphql-jit, a document seen before) or interpreted (graphql-js)',
  labelNames: ['executor'] as const,
  registers: [registry],
});

export const retentionRuns = new Counter({
  name: 'retention_runs_total',
  help: 'Retention runs (the periodic task and `ops retention run`)',
  registers: [registry],
});

export const retentionPartitionsDropped = new Counter({
  name: 'retention_partitions_dropped_total',
  help: 'Time partitions dropped by retention, by table',
  labelNames: ['table'] as const,
  registers: [registry],
});

export const retentionRowsRemoved = new Counter({
  name: 'retention_rows_removed_total',
  help: 'Rows retention deleted in batches (default partitions, shorter tenant retention, dependent rows), by table',
  labelNames: ['table'] as const,
  registers: [registry],
});

/** Sources of the live-subscription gauges: each graphql-ws server's fan-out (src/server/live-fanout.ts). */
const liveSubscriptionSources = new Set<() => { groups: number; members: number }>();

/** Adds a fan-out to the live-subscription gauges; returns its removal. */
export function addLiveSubscriptionSource(source: () => { groups: number; members: number }): () => void {
  liveSubscriptionSources.add(source);
  return () => liveSubscriptionSources.delete(source);
}

function sumLive(part: 'groups' | 'members'): number {
  let n = 0;
  for (const source of liveSubscriptionSources) n += source()[part];
  return n;
}

export const liveSubscribers = new Gauge({
  name: 'graphql_ws_shared_subscriptions',
  help: 'Live graphql-ws subscriptions on this node served by a shared fan-out group (eventAdded, alertChanged, …)',
  registers: [registry],
  collect() {
    this.set(sumLive('members'));
  },
});

export const liveSubscriptionGroups = new Gauge({
  name: 'graphql_ws_subscription_groups',
  help: 'Fan-out groups on this node: one running operation each, shared by subscribers who see the same thing',
  registers: [registry],
  collect() {
    this.set(sumLive('groups'));
  },
});
