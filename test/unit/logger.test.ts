import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pinoHttp } from 'pino-http';
import { createLogger } from '../../src/logger.js';

/** Serves one request through pino-http (as src/http/server.ts does) and returns the log lines written. */
async function accessLogOf(
  requestHeaders: Record<string, string>,
  responseHeaders: Record<string, string>,
): Promise<string> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const accessLog = pinoHttp({ logger: createLogger('info', sink) });
  const server = http.createServer((req, res) => {
    accessLog(req, res);
    for (const [k, v] of Object.entries(responseHeaders)) res.setHeader(k, v);
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/x`, { headers: requestHeaders });
    await expect.poll(() => lines.some((l) => l.includes('request completed'))).toBe(true);
  } finally {
    await new Promise((r) => server.close(r));
  }
  return lines.join('');
}

describe('the access log', () => {
  it('redacts credentials in request headers and the refreshed JWT and cookies in response headers', async () => {
    const log = await accessLogOf(
      {
        authorization: 'Bearer spat_request_secret',
        cookie: 'ops_session=cookie_secret',
        'x-service-key': 'sik_key_secret',
        'x-service-signature': 'signature_secret',
      },
      { 'x-refreshed-token': 'eyJ.refreshed_jwt_secret', 'set-cookie': 'ops_session=set_cookie_secret' },
    );
    expect(log).toContain('request completed');
    for (const secret of [
      'spat_request_secret',
      'cookie_secret',
      'sik_key_secret',
      'signature_secret',
      'refreshed_jwt_secret',
      'set_cookie_secret',
    ]) {
      expect(log, secret).not.toContain(secret);
    }
    expect(log).toContain('[redacted]');
  });
});
