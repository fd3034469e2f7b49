/**
 * /readyz carries `warnings` when the service runs with development defaults where other machines can
 * reach it: NODE_ENV unset on a non-loopback bind (anonymous introspection is the default then).
 */
import { describe, expect, it } from 'vitest';
import { startTestServer } from './helpers/server.js';

async function readyz(
  env: Record<string, string>,
): Promise<{ status: number; body: { status: string; warnings?: string[] } }> {
  const s = await startTestServer({ env });
  try {
    const res = await fetch(`http://127.0.0.1:${new URL(s.url).port}/readyz`);
    return { status: res.status, body: await res.json() };
  } finally {
    await s.stop();
  }
}

describe('/readyz warnings', () => {
  it('warns when NODE_ENV is unset on a non-loopback bind, and stays ready', async () => {
    const r = await readyz({ HOST: '0.0.0.0' });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ready');
    expect(r.body.warnings?.[0]).toMatch(/NODE_ENV is unset while listening on 0\.0\.0\.0.*NODE_ENV=production/);
  });

  it('has no warnings with NODE_ENV set, or on loopback', async () => {
    expect((await readyz({ HOST: '0.0.0.0', NODE_ENV: 'production' })).body.warnings).toBeUndefined();
    expect((await readyz({ HOST: '127.0.0.1' })).body.warnings).toBeUndefined();
  });
});
