/**
 * Outbound calls never follow a redirect out of the address they were allowed to reach: the assistant's
 * model client (OpenAI-compatible), integration pulls, dcgm-exporter scrapes and calls to a cluster hub.
 * Two real HTTP servers on 127.0.0.1: the first (the allowed one, standing in for a model server, a
 * Prometheus, an exporter or a hub, which cannot run here) answers every request with 307 to the second,
 * which must receive nothing. The model client also applies the address policy to ASSISTANT_BASE_URL:
 * a loopback model server needs ASSISTANT_URL_ALLOWLIST.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createOpenAIProvider } from '../src/assistant/providers/openai.js';
import { guardedGet } from '../src/net/http.js';
import { scrapeDcgmTarget } from '../src/gpu/scrape.js';
import { sendWebhookRequest } from '../src/deliveries/sender.js';
import { compileUrlPolicy } from '../src/net/url-guard.js';

interface Recorder {
  url: string;
  hits: string[];
  server: http.Server;
}

async function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, hits: string[]) => void,
): Promise<Recorder> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => handler(req, res, hits));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

let target: Recorder; // the address no one allowed
let redirector: Recorder; // the allowed server, answering 307 to the other

beforeAll(async () => {
  target = await listen((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[{"message":{"content":"leaked"}}]}'),
  );
  redirector = await listen((req, res) => res.writeHead(307, { location: `${target.url}${req.url}` }).end());
});

afterAll(async () => {
  for (const r of [target, redirector]) await new Promise((resolve) => r?.server.close(resolve));
});

beforeEach(() => {
  target.hits.length = 0;
  redirector.hits.length = 0;
});

const allowLoopback = compileUrlPolicy(['127.0.0.1']);

describe('the assistant model client', () => {
  const provider = (env: Record<string, string>) =>
    createOpenAIProvider(
      loadConfig({
        ASSISTANT_PROVIDER: 'openai',
        ASSISTANT_BASE_URL: `${redirector.url}/v1`,
        ASSISTANT_MODEL: 'm',
        ASSISTANT_API_KEY: 'sk-secret',
        ASSISTANT_TIMEOUT_MS: '10000',
        ...env,
      }).assistant,
    );

  it('does not follow a 307 from the allowed model server to another local port (502 naming the redirect)', async () => {
    const p = provider({ ASSISTANT_URL_ALLOWLIST: '127.0.0.1' });
    const failure = await p.complete({ system: 's', user: 'u' }).then(
      () => null,
      (e: Error) => e,
    );
    expect(failure?.message).toMatch(/HTTP 307 redirecting to .*redirects are not followed/);
    expect((failure as { code?: string }).code).toBe('UPSTREAM_FAILED');
    // The streaming chat path goes through the same client.
    expect(redirector.hits.length).toBeGreaterThan(0);
    expect(target.hits).toEqual([]);
  });

  it('refuses a loopback model server that ASSISTANT_URL_ALLOWLIST does not allow, before connecting', async () => {
    const failure = await provider({})
      .complete({ system: 's', user: 'u' })
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(failure?.message).toMatch(/127\.0\.0\.1.*loopback.*ASSISTANT_URL_ALLOWLIST/);
    expect(redirector.hits).toEqual([]);
    expect(target.hits).toEqual([]);
  });

  it('refuses a host name that resolves to a loopback address (checked in the socket lookup)', async () => {
    const p = createOpenAIProvider(
      loadConfig({
        ASSISTANT_PROVIDER: 'openai',
        ASSISTANT_BASE_URL: redirector.url.replace('127.0.0.1', 'localhost') + '/v1',
        ASSISTANT_MODEL: 'm',
        ASSISTANT_URL_ALLOWLIST: '10.0.0.0/8',
      }).assistant,
    );
    const failure = await p.complete({ system: 's', user: 'u' }).then(
      () => null,
      (e: Error) => e,
    );
    expect(failure?.message).toMatch(/loopback.*ASSISTANT_URL_ALLOWLIST/);
    expect(redirector.hits).toEqual([]);
  });
});

describe('integration pulls, dcgm scrapes and cluster calls', () => {
  it('an integration pull answers the 307 as it is, without a second request', async () => {
    const r = await guardedGet(`${redirector.url}/api/v1/alerts`, { policy: allowLoopback, timeoutMs: 10_000 });
    expect(r.status).toBe(307);
    expect(redirector.hits).toEqual(['GET /api/v1/alerts']);
    expect(target.hits).toEqual([]);
  });

  it('a dcgm-exporter scrape fails on the 307 and reaches nothing else', async () => {
    await expect(
      scrapeDcgmTarget(`${redirector.url}/metrics`, { policy: allowLoopback, timeoutMs: 10_000 }, new Date()),
    ).rejects.toThrow(/307/);
    expect(target.hits).toEqual([]);
  });

  it('a call to a cluster hub (and a webhook delivery) records the 307 and posts nothing elsewhere', async () => {
    const r = await sendWebhookRequest({
      url: `${redirector.url}/api/v1/clusters/heartbeat`,
      body: '{}',
      headers: { 'content-type': 'application/json' },
      timeoutMs: 10_000,
      policy: allowLoopback,
    });
    expect(r.status).toBe(307);
    expect(redirector.hits).toEqual(['POST /api/v1/clusters/heartbeat']);
    expect(target.hits).toEqual([]);
  });
});
