import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      jwtTtlSeconds: 3600,
      bootstrapDemo: true,
      bodyLimitBytes: 1024 * 1024,
      runWorkers: true,
      runHttp: true,
      trustProxy: false,
      credentialRecheckMs: 15_000,
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT must be an integer >= 0, got "abc"/],
    [{ PORT: '-1' }, /^PORT must be an integer/],
    [{ JWT_TTL_SECONDS: '30' }, /^JWT_TTL_SECONDS must be an integer >= 60/],
    [{ BOOTSTRAP_DEMO: 'maybe' }, /^BOOTSTRAP_DEMO must be true or false/],
    [{ DATABASE_URL: 'mysql://db/x' }, /^DATABASE_URL must use postgres: or postgresql:/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL must be a URL/],
    [{ REDIS_URL: 'http://x' }, /^REDIS_URL must use redis: or rediss:/],
    [{ APP_SECRET: 'short' }, /^APP_SECRET must be at least 32 characters/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ RUN_HTTP: 'sometimes' }, /^RUN_HTTP must be true or false/],
    [{ TRUST_PROXY: 'every "one"' }, /^TRUST_PROXY must be true, false, a hop count/],
    [{ ABSENCE_CHECK_INTERVAL_MS: '5' }, /^ABSENCE_CHECK_INTERVAL_MS must be an integer >= 100/],
  ])('names the variable and the problem for %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('accepts valid values', () => {
    const c = loadConfig({
      PORT: '0',
      DATABASE_URL: 'postgresql://u@h/db',
      REDIS_URL: 'redis://h:6379',
      BOOTSTRAP_DEMO: 'false',
      JWT_TTL_SECONDS: '60',
      RUN_HTTP: 'false',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
    });
    expect(c).toMatchObject({
      port: 0,
      databaseUrl: 'postgresql://u@h/db',
      redisUrl: 'redis://h:6379',
      bootstrapDemo: false,
      jwtTtlSeconds: 60,
      runHttp: false,
      trustProxy: 'loopback, 10.0.0.0/8',
    });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });
});
