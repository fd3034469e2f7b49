/**
 * Configuration from the environment, checked once at start-up. A bad value stops the process with a
 * message naming the variable and what it should be. The areas' sections (integrations, alerting,
 * delivery, GPU, history, assistant) are src/config-areas.ts; the readers of one variable src/config-env.ts.
 */
import path from 'node:path';
import { bool, ConfigError, int, url } from './config-env.js';
import { loadOtelConfig, type OtelConfig } from './config-otel.js';
import { loadInstallationSso, type InstallationSsoConfig } from './config-sso.js';
import {
  loadAlertingConfig,
  loadAssistantConfig,
  loadGpuConfig,
  loadHistoryConfig,
  loadIntegrationsConfig,
  loadWebhookDeliveryConfig,
  loadNotifyConfig,
  type NotifyConfig,
  type AlertingConfig,
  type AssistantConfig,
  type GpuConfig,
  type HistoryConfig,
  type IntegrationsConfig,
  type WebhookDeliveryConfig,
} from './config-areas.js';

export { ConfigError } from './config-env.js';
export type {
  AlertingConfig,
  AssistantConfig,
  GpuConfig,
  HistoryConfig,
  IntegrationsConfig,
  WebhookDeliveryConfig,
} from './config-areas.js';

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** REDIS_CLUSTER_NODES (+ REDIS_CLUSTER_USERNAME/PASSWORD/TLS): a Redis Cluster; wins over REDIS_URL. */
  redisCluster?: RedisClusterConfig;
  /** REPORTS_DATABASE_URL: where reports, exports and billing read (a replica); default the primary. */
  reportsDatabaseUrl?: string;
  /** Replica lag above this is named in report responses (REPORTS_LAG_NOTICE_SECONDS, default 5). */
  reportsLagNoticeSeconds: number;
  /** Report queries and exports one tenant may run at once, across nodes (REPORTS_TENANT_CONCURRENCY, default 2). */
  reportsTenantConcurrency: number;
  /** An export whose client reads nothing for this long is cut (REPORTS_EXPORT_STALL_SECONDS, default 30). */
  reportsExportStallSeconds: number;
  /** Longest an export's statement may run (REPORTS_EXPORT_TIMEOUT_SECONDS, default 600). */
  reportsExportTimeoutSeconds: number;
  /** graphql-ws connections one client address may hold on a node (WS_MAX_CONNECTIONS_PER_IP, default 64). */
  wsMaxConnectionsPerIp: number;
  /** graphql-ws connections one credential may hold on a node (WS_MAX_CONNECTIONS_PER_CREDENTIAL, default 32). */
  wsMaxConnectionsPerCredential: number;
  /** Operations one graphql-ws connection may run at once (WS_MAX_SUBSCRIPTIONS_PER_CONNECTION, default 100). */
  wsMaxSubscriptionsPerConnection: number;
  /** A graphql-ws socket that sends no connection_init within this is closed, 4408 (WS_CONNECTION_INIT_TIMEOUT_MS, default 3000). */
  wsConnectionInitTimeoutMs: number;
  /** A request whose headers and body take longer than this to arrive is cut, 408 (HTTP_REQUEST_TIMEOUT_SECONDS, default 30). */
  httpRequestTimeoutSeconds: number;
  /** Assistant and copilot calls per user per minute (ASSISTANT_RATE_PER_USER_PER_MINUTE, default 20). */
  assistantRatePerUserPerMinute: number;
  /** Assistant and copilot calls per tenant per minute (ASSISTANT_RATE_PER_TENANT_PER_MINUTE, default 60). */
  assistantRatePerTenantPerMinute: number;
  dataDir: string;
  /** Secret for JWT signing and for encrypting stored webhook secrets (32+ bytes). */
  appSecret?: string;
  jwtTtlSeconds: number;
  bootstrapDemo: boolean;
  logLevel: string;
  publicBaseUrl?: string;
  bodyLimitBytes: number;
  ingestRatePerSecond: number;
  apiRatePerMinute: number;
  /** Interval of the `: heartbeat` comment on GET /events/stream. */
  sseHeartbeatMs: number;
  runWorkers: boolean;
  /** Serve HTTP in this process; false makes a worker-only node. */
  runHttp: boolean;
  redisPrefix: string;
  /** Outbound webhook delivery settings (WEBHOOK_*). */
  webhooks: WebhookDeliveryConfig;
  /** Rule evaluation and alert upkeep timing. */
  alerting: AlertingConfig;
  integrations: IntegrationsConfig;
  /** GPU telemetry: health limits and retention (GPU_*). */
  gpu: GpuConfig;
  /** Partitioned history: retention and the request pool's statement timeout (src/history). */
  history: HistoryConfig;
  /** How often each worker process re-registers the periodic job schedules (they live in Redis). */
  scheduleRefreshMs: number;
  /** How often an open WebSocket connection's credential is checked again (revoked PAT, logout). */
  credentialRecheckMs: number;
  /** Express `trust proxy`: which X-Forwarded-For hops to believe for the client address. */
  trustProxy: boolean | number | string;
  /** The assistant's model provider (ASSISTANT_*). */
  assistant: AssistantConfig;
  /**
   * Who may run GraphQL introspection (`__schema`, `__type`): `public` (anyone), `authenticated` (a
   * credential is needed) or `off` (the default when NODE_ENV=production).
   */
  introspection: IntrospectionPolicy;
  /** NODE_ENV as given (unset: development defaults). */
  nodeEnv?: string;
  /** OpenTelemetry export (OTEL_*): off unless an OTLP endpoint is set. */
  otel: OtelConfig;
  /** The installation's OpenID Connect provider (OIDC_*), if any. */
  sso?: InstallationSsoConfig;
  /** METRICS_TOKEN: when set, /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`. */
  metricsToken?: string;
  /** Outgoing mail (SMTP_URL, SMTP_FROM) and paging notifications (NOTIFY_*). */
  notify: NotifyConfig;
}

export interface RedisClusterConfig {
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  tls: boolean;
}

/** REDIS_CLUSTER_NODES=host:port,host:port,... (any reachable subset of the cluster's nodes is enough). */
function redisCluster(env: NodeJS.ProcessEnv): RedisClusterConfig | undefined {
  const raw = env.REDIS_CLUSTER_NODES?.trim();
  if (!raw) return undefined;
  const nodes = raw.split(',').map((part) => {
    const m = /^\[?([^\]\s]+?)\]?:(\d{1,5})$/.exec(part.trim());
    const port = m ? Number(m[2]) : 0;
    if (!m || port < 1 || port > 65535)
      throw new ConfigError(`REDIS_CLUSTER_NODES must be a comma list of host:port, got "${part.trim()}".`);
    return { host: m[1], port };
  });
  return {
    nodes,
    username: env.REDIS_CLUSTER_USERNAME || undefined,
    password: env.REDIS_CLUSTER_PASSWORD || undefined,
    tls: bool(env, 'REDIS_CLUSTER_TLS', false),
  };
}

export type IntrospectionPolicy = 'public' | 'authenticated' | 'off';

function introspectionPolicy(env: NodeJS.ProcessEnv): IntrospectionPolicy {
  const raw = env.INTROSPECTION;
  if (raw === undefined || raw === '') return env.NODE_ENV === 'production' ? 'off' : 'public';
  if (raw === 'public' || raw === 'authenticated' || raw === 'off') return raw;
  throw new ConfigError(`INTROSPECTION must be one of public, authenticated, off; got "${raw}".`);
}

/**
 * TRUST_PROXY: false (default: the socket's address is the client), true (believe X-Forwarded-For
 * entirely, only behind a proxy that overwrites it), a hop count, or a comma list of proxy addresses or
 * subnets such as `loopback,10.0.0.0/8`.
 */
function trustProxy(env: NodeJS.ProcessEnv): boolean | number | string {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || ['false', '0', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (/^[\w.:/,\s-]+$/.test(raw)) return raw;
  throw new ConfigError(
    `TRUST_PROXY must be true, false, a hop count or a comma list of addresses/subnets, got "${raw}".`,
  );
}

/** Reads and validates the configuration; throws ConfigError with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const appSecret = env.APP_SECRET;
  if (appSecret !== undefined && appSecret.length < 32) {
    throw new ConfigError('APP_SECRET must be at least 32 characters (try: openssl rand -hex 32).');
  }
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${logLevel}".`,
    );
  }
  return {
    port: int(env, 'PORT', 8080),
    // Safe by default: only this machine reaches the service until HOST says otherwise (HOST=0.0.0.0).
    host: env.HOST || '127.0.0.1',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisCluster: redisCluster(env),
    reportsDatabaseUrl: url(env, 'REPORTS_DATABASE_URL', ['postgres:', 'postgresql:']),
    reportsLagNoticeSeconds: int(env, 'REPORTS_LAG_NOTICE_SECONDS', 5, 0),
    reportsTenantConcurrency: int(env, 'REPORTS_TENANT_CONCURRENCY', 2, 1),
    reportsExportStallSeconds: int(env, 'REPORTS_EXPORT_STALL_SECONDS', 30, 1),
    reportsExportTimeoutSeconds: int(env, 'REPORTS_EXPORT_TIMEOUT_SECONDS', 600, 1),
    wsMaxConnectionsPerIp: int(env, 'WS_MAX_CONNECTIONS_PER_IP', 64, 1),
    wsMaxConnectionsPerCredential: int(env, 'WS_MAX_CONNECTIONS_PER_CREDENTIAL', 32, 1),
    wsMaxSubscriptionsPerConnection: int(env, 'WS_MAX_SUBSCRIPTIONS_PER_CONNECTION', 100, 1),
    wsConnectionInitTimeoutMs: int(env, 'WS_CONNECTION_INIT_TIMEOUT_MS', 3000, 100),
    httpRequestTimeoutSeconds: int(env, 'HTTP_REQUEST_TIMEOUT_SECONDS', 30, 1),
    assistantRatePerUserPerMinute: int(env, 'ASSISTANT_RATE_PER_USER_PER_MINUTE', 20, 1),
    assistantRatePerTenantPerMinute: int(env, 'ASSISTANT_RATE_PER_TENANT_PER_MINUTE', 60, 1),
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    appSecret,
    jwtTtlSeconds: int(env, 'JWT_TTL_SECONDS', 3600, 60),
    bootstrapDemo: bool(env, 'BOOTSTRAP_DEMO', true),
    logLevel,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    ingestRatePerSecond: int(env, 'INGEST_RATE_PER_SECOND', 10, 1),
    apiRatePerMinute: int(env, 'API_RATE_PER_MINUTE', 6000, 1),
    sseHeartbeatMs: int(env, 'SSE_HEARTBEAT_MS', 15000, 100),
    runWorkers: bool(env, 'RUN_WORKERS', true),
    runHttp: bool(env, 'RUN_HTTP', true),
    redisPrefix: env.REDIS_PREFIX ?? 'ops',
    webhooks: loadWebhookDeliveryConfig(env),
    alerting: loadAlertingConfig(env),
    integrations: loadIntegrationsConfig(env),
    gpu: loadGpuConfig(env),
    history: loadHistoryConfig(env),
    scheduleRefreshMs: int(env, 'SCHEDULE_REFRESH_MS', 10_000, 100),
    credentialRecheckMs: int(env, 'CREDENTIAL_RECHECK_MS', 15_000, 100),
    trustProxy: trustProxy(env),
    assistant: loadAssistantConfig(env),
    introspection: introspectionPolicy(env),
    nodeEnv: env.NODE_ENV || undefined,
    otel: loadOtelConfig(env),
    sso: loadInstallationSso(env),
    metricsToken: env.METRICS_TOKEN || undefined,
    notify: loadNotifyConfig(env),
  };
}
