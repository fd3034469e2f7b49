/**
 * The areas' sections of the configuration (src/config.ts assembles them): integrations and clusters,
 * rule evaluation, outbound delivery, GPU telemetry, history rollups and the assistant.
 */
import { ConfigError, int, url } from './config-env.js';

/** Integrations and clusters: health checks, pulls and heartbeats (milliseconds unless stated). */
export interface IntegrationsConfig {
  /** How often every enabled integration's health is checked (INTEGRATION_HEALTH_INTERVAL_MS, default 60000). */
  healthIntervalMs: number;
  /** Deadline of one pull or health probe (INTEGRATION_PROBE_TIMEOUT_MS, default 5000). */
  probeTimeoutMs: number;
  /** On-demand ingests per minute per tenant and provider (INTEGRATION_INGEST_PER_MINUTE, default 6). */
  ingestPerMinute: number;
  /** How often a member sends its heartbeat and forwards critical alerts to its hub (CLUSTER_HEARTBEAT_MS, default 30000). */
  clusterHeartbeatMs: number;
  /** A cluster unheard of for this long is `stale` (CLUSTER_STALE_AFTER_MS, default 3 heartbeats). */
  clusterStaleAfterMs: number;
}

export function loadIntegrationsConfig(env: NodeJS.ProcessEnv): IntegrationsConfig {
  const clusterHeartbeatMs = int(env, 'CLUSTER_HEARTBEAT_MS', 30_000, 100);
  return {
    healthIntervalMs: int(env, 'INTEGRATION_HEALTH_INTERVAL_MS', 60_000, 100),
    probeTimeoutMs: int(env, 'INTEGRATION_PROBE_TIMEOUT_MS', 5_000, 100),
    ingestPerMinute: int(env, 'INTEGRATION_INGEST_PER_MINUTE', 6, 1),
    clusterHeartbeatMs,
    clusterStaleAfterMs: int(env, 'CLUSTER_STALE_AFTER_MS', 3 * clusterHeartbeatMs, 100),
  };
}

/** Rule evaluation and alert upkeep timing, in milliseconds. */
export interface AlertingConfig {
  /** How often the absence (heartbeat) check runs (ABSENCE_CHECK_INTERVAL_MS, default 1000). */
  absenceCheckIntervalMs: number;
  /** How often snoozed alerts past their time are reopened (SNOOZE_WAKE_INTERVAL_MS, default 1000). */
  snoozeWakeIntervalMs: number;
  /** How often the re-drive sweeper runs (EVALUATE_SWEEP_INTERVAL_MS, default 2000). */
  sweepIntervalMs: number;
  /** How old an unevaluated event must be before it is re-driven (EVALUATE_SWEEP_AGE_MS, default 5000). */
  sweepAgeMs: number;
  /** Evaluation batches run at once per worker process (EVALUATE_CONCURRENCY, default 4). */
  evaluateConcurrency: number;
  /** How often the escalation sweeper runs due steps whose timer was lost (ESCALATION_SWEEP_INTERVAL_MS, default 1000). */
  escalationSweepIntervalMs: number;
  /**
   * Evaluation time one tenant may use per window across every worker (EVALUATE_TENANT_BUDGET_MS, default
   * 2000; 0 turns the budget off); past it the tenant's events wait for the next window
   * (src/rules/evaluation-budget.ts).
   */
  tenantBudgetMs: number;
  /** The budget's window (EVALUATE_TENANT_BUDGET_WINDOW_SECONDS, default 1). */
  tenantBudgetWindowSeconds: number;
}

export function loadAlertingConfig(env: NodeJS.ProcessEnv): AlertingConfig {
  return {
    absenceCheckIntervalMs: int(env, 'ABSENCE_CHECK_INTERVAL_MS', 1000, 100),
    snoozeWakeIntervalMs: int(env, 'SNOOZE_WAKE_INTERVAL_MS', 1000, 100),
    sweepIntervalMs: int(env, 'EVALUATE_SWEEP_INTERVAL_MS', 2000, 100),
    sweepAgeMs: int(env, 'EVALUATE_SWEEP_AGE_MS', 5000, 100),
    evaluateConcurrency: int(env, 'EVALUATE_CONCURRENCY', 4, 1),
    escalationSweepIntervalMs: int(env, 'ESCALATION_SWEEP_INTERVAL_MS', 1000, 100),
    tenantBudgetMs: int(env, 'EVALUATE_TENANT_BUDGET_MS', 2000, 0),
    tenantBudgetWindowSeconds: int(env, 'EVALUATE_TENANT_BUDGET_WINDOW_SECONDS', 1, 1),
  };
}

/** Outbound delivery: timeout, retry schedule and window, per-receiver limits, SSRF allowlist, sweeping. */
export interface WebhookDeliveryConfig {
  /** Whole-request deadline for one attempt (connect, send, response), ms. */
  timeoutMs: number;
  /** Exponential backoff: first retry delay, ms; doubles per attempt (with jitter) up to retryMaxDelayMs. */
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** Retries stop after this long (from creation or a manual redeliver); the delivery becomes failed. */
  retryWindowMs: number;
  /** Requests per second to one receiver URL, across all nodes (Redis). */
  ratePerSecond: number;
  /** Concurrent sends per process, and per receiver URL per process (a slow receiver cannot take every slot). */
  concurrency: number;
  maxInFlightPerReceiver: number;
  /** IPs, CIDRs or host names that may be delivered to although they are private/loopback/link-local. */
  urlAllowlist: string[];
  /** An undispatched outbox message or an overdue delivery older than this is re-driven by the sweeper, ms. */
  sweepAfterMs: number;
  /** BullMQ lock of a delivery job: a worker that dies mid-send loses its job to another after this, ms. */
  jobLockMs: number;
  /** Delivery history older than this is purged. */
  historyRetentionDays: number;
}

export interface GpuConfig {
  /** °C at or above which a GPU is a warning / critical (and a `gpu.thermal` event starts). */
  temperatureWarnC: number;
  temperatureCriticalC: number;
  /** The interval samples are expected at; a GPU without one for `missingAfterIntervals` is missing. */
  sampleIntervalMs: number;
  missingAfterIntervals: number;
  /** Raw samples, 1-minute and 1-hour rollups are kept this long. */
  rawRetentionHours: number;
  minuteRollupRetentionDays: number;
  hourRollupRetentionDays: number;
}

export function loadGpuConfig(env: NodeJS.ProcessEnv): GpuConfig {
  const temperatureWarnC = int(env, 'GPU_TEMPERATURE_WARN_C', 83, 1);
  const temperatureCriticalC = int(env, 'GPU_TEMPERATURE_CRITICAL_C', 90, 1);
  if (temperatureCriticalC < temperatureWarnC)
    throw new ConfigError(
      `GPU_TEMPERATURE_CRITICAL_C (${temperatureCriticalC}) must be at least GPU_TEMPERATURE_WARN_C (${temperatureWarnC}).`,
    );
  return {
    temperatureWarnC,
    temperatureCriticalC,
    sampleIntervalMs: int(env, 'GPU_SAMPLE_INTERVAL_MS', 10_000, 100),
    missingAfterIntervals: int(env, 'GPU_MISSING_AFTER_INTERVALS', 6, 1),
    rawRetentionHours: int(env, 'GPU_RAW_RETENTION_HOURS', 48, 1),
    minuteRollupRetentionDays: int(env, 'GPU_MINUTE_ROLLUP_RETENTION_DAYS', 14, 1),
    hourRollupRetentionDays: int(env, 'GPU_HOUR_ROLLUP_RETENTION_DAYS', 400, 1),
  };
}

export interface HistoryConfig {
  /** Timeline events are kept this long (EVENT_RETENTION_DAYS); an admin may shorten it per tenant. */
  eventRetentionDays: number;
  /** Audit log entries (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** Resolved alerts with their timelines and event links (RESOLVED_ALERT_RETENTION_DAYS). */
  resolvedAlertRetentionDays: number;
  /** Metered usage and its windows (BILLING_RETENTION_DAYS, at least 62). */
  billingRetentionDays: number;
  /** Partitions exist this many days ahead (PARTITIONS_AHEAD_DAYS, at least 7). */
  partitionsAheadDays: number;
  /** Longest statement of the request pool, ms (DB_STATEMENT_TIMEOUT_MS; 0 turns it off). */
  statementTimeoutMs: number;
}

export function loadHistoryConfig(env: NodeJS.ProcessEnv): HistoryConfig {
  return {
    eventRetentionDays: int(env, 'EVENT_RETENTION_DAYS', 400, 1),
    auditRetentionDays: int(env, 'AUDIT_RETENTION_DAYS', 400, 1),
    resolvedAlertRetentionDays: int(env, 'RESOLVED_ALERT_RETENTION_DAYS', 730, 1),
    billingRetentionDays: int(env, 'BILLING_RETENTION_DAYS', 760, 62),
    partitionsAheadDays: int(env, 'PARTITIONS_AHEAD_DAYS', 7, 7),
    statementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 15_000, 0),
  };
}

export function loadWebhookDeliveryConfig(env: NodeJS.ProcessEnv): WebhookDeliveryConfig {
  return {
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 1),
    retryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 5_000, 1),
    retryMaxDelayMs: int(env, 'WEBHOOK_RETRY_MAX_DELAY_MS', 15 * 60_000, 1),
    retryWindowMs: int(env, 'WEBHOOK_RETRY_WINDOW_MS', 60 * 60_000, 1),
    ratePerSecond: int(env, 'WEBHOOK_RATE_PER_SECOND', 50, 1),
    concurrency: int(env, 'WEBHOOK_DELIVERY_CONCURRENCY', 64, 1),
    maxInFlightPerReceiver: int(env, 'WEBHOOK_MAX_IN_FLIGHT_PER_RECEIVER', 16, 1),
    urlAllowlist: (env.WEBHOOK_URL_ALLOWLIST ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    sweepAfterMs: int(env, 'WEBHOOK_SWEEP_AFTER_MS', 10_000, 0),
    jobLockMs: int(env, 'WEBHOOK_JOB_LOCK_MS', 30_000, 500),
    historyRetentionDays: int(env, 'WEBHOOK_HISTORY_RETENTION_DAYS', 30, 1),
  };
}

/**
 * The assistant: `builtin` (default: deterministic checks and templates, no model, no network) or
 * `openai` (any OpenAI-compatible chat-completions server: vLLM, Ollama, a hosted API).
 */
export interface AssistantConfig {
  provider: 'builtin' | 'openai';
  /** ASSISTANT_BASE_URL, e.g. http://127.0.0.1:11434/v1 (required for openai: never a silent default host). */
  baseUrl?: string;
  /** ASSISTANT_MODEL (required for openai). */
  model?: string;
  /** ASSISTANT_API_KEY: a secret. Not enumerable, so logging or serializing the config never shows it. */
  readonly apiKey?: string;
  /** Whole-call deadline for one model request (ASSISTANT_TIMEOUT_MS, default 60000). */
  timeoutMs: number;
  /** Tool-call rounds per turn before the assistant gives up (ASSISTANT_MAX_TOOL_ROUNDS, default 6). */
  maxToolRounds: number;
  /** How long a proposed action may be approved (ASSISTANT_ACTION_TTL_SECONDS, default 3600). */
  actionTtlSeconds: number;
  /**
   * Non-public addresses the model server may have (ASSISTANT_URL_ALLOWLIST: IPs, CIDRs, host names, as
   * WEBHOOK_URL_ALLOWLIST), e.g. `127.0.0.1` for an Ollama or vLLM on the same machine. Public
   * addresses need no entry. Separate from the webhook allowlist: allowing a local model server must not
   * let tenants' webhooks reach it.
   */
  urlAllowlist: string[];
}

export function loadAssistantConfig(env: NodeJS.ProcessEnv): AssistantConfig {
  const provider = (env.ASSISTANT_PROVIDER ?? '').trim().toLowerCase() || 'builtin';
  if (provider !== 'builtin' && provider !== 'openai') {
    throw new ConfigError(`ASSISTANT_PROVIDER must be builtin or openai, got "${env.ASSISTANT_PROVIDER}".`);
  }
  const baseUrl = url(env, 'ASSISTANT_BASE_URL', ['http:', 'https:']);
  const model = env.ASSISTANT_MODEL?.trim() || undefined;
  if (model && model.length > 200) throw new ConfigError('ASSISTANT_MODEL must be at most 200 characters.');
  if (provider === 'openai') {
    if (!baseUrl)
      throw new ConfigError(
        'ASSISTANT_PROVIDER=openai needs ASSISTANT_BASE_URL (the OpenAI-compatible API root, e.g. http://127.0.0.1:11434/v1).',
      );
    if (!model)
      throw new ConfigError('ASSISTANT_PROVIDER=openai needs ASSISTANT_MODEL (the model name the server serves).');
  }
  const cfg: AssistantConfig = {
    provider,
    baseUrl,
    model,
    timeoutMs: int(env, 'ASSISTANT_TIMEOUT_MS', 60_000, 100),
    maxToolRounds: int(env, 'ASSISTANT_MAX_TOOL_ROUNDS', 6, 1),
    actionTtlSeconds: int(env, 'ASSISTANT_ACTION_TTL_SECONDS', 3600, 1),
    urlAllowlist: (env.ASSISTANT_URL_ALLOWLIST ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
  const apiKey = env.ASSISTANT_API_KEY?.trim() || undefined;
  Object.defineProperty(cfg, 'apiKey', { value: apiKey, enumerable: false, writable: false });
  return cfg;
}

/** Outgoing mail and paging notifications (SMTP_*, NOTIFY_*). */
export interface NotifyConfig {
  /** SMTP_URL, e.g. smtp://user:pass@127.0.0.1:2525 (smtps:// for implicit TLS); unset: no email is sent. */
  smtpUrl?: string;
  /** SMTP_FROM: the sender of every email (default `Operations Service <ops@localhost>`). */
  smtpFrom: string;
  /** Deadline of one send (an SMTP transaction, an HTTP POST) (NOTIFY_SEND_TIMEOUT_MS, default 10000). */
  sendTimeoutMs: number;
  /** Tries of one notification before it is recorded failed (NOTIFY_ATTEMPTS, default 4). */
  attempts: number;
  /** First retry delay, doubling each time (NOTIFY_RETRY_DELAY_MS, default 1000). */
  retryDelayMs: number;
  /** How often due pending notifications are re-driven (NOTIFY_SWEEP_INTERVAL_MS, default 1000). */
  sweepIntervalMs: number;
  /** Sends run at once per worker process (NOTIFY_CONCURRENCY, default 32). */
  concurrency: number;
}

export function loadNotifyConfig(env: NodeJS.ProcessEnv): NotifyConfig {
  return {
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    smtpFrom: env.SMTP_FROM || 'Operations Service <ops@localhost>',
    sendTimeoutMs: int(env, 'NOTIFY_SEND_TIMEOUT_MS', 10_000, 100),
    attempts: int(env, 'NOTIFY_ATTEMPTS', 4, 1),
    retryDelayMs: int(env, 'NOTIFY_RETRY_DELAY_MS', 1000, 10),
    sweepIntervalMs: int(env, 'NOTIFY_SWEEP_INTERVAL_MS', 1000, 50),
    concurrency: int(env, 'NOTIFY_CONCURRENCY', 32, 1),
  };
}
