/**
 * Configuration from the environment, checked once at start-up. A bad value stops the process with a
 * message naming the variable and what it should be.
 */
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  redisUrl?: string;
  dataDir: string;
  /** Secret for JWT signing and for encrypting stored webhook secrets (32+ bytes). */
  appSecret?: string;
  jwtTtlSeconds: number;
  bootstrapDemo: boolean;
  logLevel: string;
  publicBaseUrl?: string;
  bodyLimitBytes: number;
  ingestRatePerSecond: number;
  runWorkers: boolean;
  redisPrefix: string;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}".`);
  return n;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}".`);
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}), got "${raw}".`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}".`);
  }
  return raw;
}

/** Reads and validates the configuration; throws ConfigError with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const appSecret = env.APP_SECRET;
  if (appSecret !== undefined && appSecret.length < 32) {
    throw new ConfigError('APP_SECRET must be at least 32 characters (try: openssl rand -hex 32).');
  }
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${logLevel}".`);
  }
  return {
    port: int(env, 'PORT', 8080),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    appSecret,
    jwtTtlSeconds: int(env, 'JWT_TTL_SECONDS', 3600, 60),
    bootstrapDemo: bool(env, 'BOOTSTRAP_DEMO', true),
    logLevel,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    ingestRatePerSecond: int(env, 'INGEST_RATE_PER_SECOND', 10, 1),
    runWorkers: bool(env, 'RUN_WORKERS', true),
    redisPrefix: env.REDIS_PREFIX ?? 'ops',
  };
}
