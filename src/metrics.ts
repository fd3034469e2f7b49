/**
 * Prometheus metrics (prom-client). One registry per process; areas register their own counters here.
 */
import { Registry, collectDefaultMetrics, Histogram, Counter } from 'prom-client';

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

export const eventsEvaluationSetAside = new Counter({
  name: 'events_evaluation_set_aside_total',
  help: 'Events whose rule evaluation failed MAX_EVALUATION_ATTEMPTS times and were set aside with their error',
  registers: [registry],
});

export const eventsEvaluationFailures = new Counter({
  name: 'events_evaluation_failures_total',
  help: 'Failed evaluation attempts of single events (each is retried until it is set aside)',
  registers: [registry],
});
