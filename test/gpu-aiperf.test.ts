/**
 * AIPerf-style load-test runs against a real streaming OpenAI-compatible server on 127.0.0.1
 * (test/helpers/openai-stream-server.ts: 100 ms to the first token, 10 ms between tokens). The measured
 * TTFT and inter-token latency are the system's measurements compared with the server's set delays,
 * with a tolerance for a loaded 2-core machine; runs are awaited by polling their status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, startTestServer, type TestServer } from './helpers/server.js';
import { eventually, gql, rest } from './helpers/http.js';
import { buildTenant, buildToken, buildUser, principalOf, type BuiltTenant } from './factories.js';
import { closedPort, startOpenAiStreamServer, type StreamServer } from './helpers/openai-stream-server.js';
import { createCtx } from '../src/context.js';
import { recordGpuSamples } from '../src/gpu/telemetry.js';
import { redriveQueuedAiperfRuns } from '../src/gpu/aiperf.js';

let s: TestServer;
let a: BuiltTenant;
let b: BuiltTenant;
let memberToken: string;
const servers: StreamServer[] = [];

const TERMINAL = ['succeeded', 'failed', 'cancelled'];

async function finished(token: string, id: string, timeoutMs = 60_000): Promise<any> {
  return eventually(
    async () => {
      const r = await rest(s.url, token).get(`/ai-factory/aiperf/runs/${id}`);
      return TERMINAL.includes(r.body.status) ? r.body : null;
    },
    timeoutMs,
    100,
  );
}

async function streamServer(opts: Parameters<typeof startOpenAiStreamServer>[0] = {}): Promise<StreamServer> {
  const srv = await startOpenAiStreamServer(opts);
  servers.push(srv);
  return srv;
}

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  a = await buildTenant(s.app.rt);
  b = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, a.tenantId));
}, 180_000);

afterAll(async () => {
  for (const srv of servers) await srv.close();
  await s?.stop();
});

describe('AIPerf runs', () => {
  it('measures TTFT ≈ 100 ms and ITL ≈ 10 ms in concurrency mode and links the GPUs of the same window', async () => {
    const ctx = createCtx(s.app.rt, principalOf(a.admin), 'aiperf-test');
    const uuid = 'GPU-aiperf-0000-0000-0000-000000000001';
    // While the run is live (its first request is being answered), the GPU reports a busy sample.
    const srv = await streamServer({
      tokens: 20,
      beforeStream: async (n) => {
        if (n === 1)
          await recordGpuSamples(
            ctx,
            [
              {
                uuid,
                node: 'infer-1',
                index: 0,
                at: s.app.rt.clock.now(),
                utilization: 87,
                powerW: 310,
                powerLimitW: 400,
                memUsedMib: 30000,
                memTotalMib: 81559,
              },
            ],
            'nvidia-smi',
          );
      },
    });
    const api = rest(s.url, a.adminToken);
    const start = await api.post('/ai-factory/aiperf/runs', {
      endpoint_url: srv.url,
      model: 'test-model',
      mode: 'concurrency',
      concurrency: 4,
      request_count: 20,
      input_tokens: 32,
      output_tokens: 20,
      streaming: true,
    });
    expect(start.status, JSON.stringify(start.body)).toBe(202);
    expect(start.body).toMatchObject({
      id: expect.any(String),
      status: 'queued',
      mode: 'concurrency',
      concurrency: 4,
      request_count: 20,
    });

    const run = await finished(a.adminToken, start.body.id);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const r = run.results;
    expect(r.requests).toBe(20);
    expect(r.errors).toBe(0);
    expect(r.output_tokens).toBe(20 * 20);
    expect(r.ttft_ms.p50).toBeGreaterThanOrEqual(90);
    expect(r.ttft_ms.p50).toBeLessThanOrEqual(250);
    expect(r.itl_ms.p50).toBeGreaterThanOrEqual(8);
    expect(r.itl_ms.p50).toBeLessThanOrEqual(40);
    // A request is the first token plus 19 gaps: at least 100 + 19 × 10 ms.
    expect(r.request_latency_ms.p50).toBeGreaterThanOrEqual(r.ttft_ms.p50);
    expect(r.request_latency_ms.p50).toBeGreaterThanOrEqual(280);
    for (const stat of [r.ttft_ms, r.itl_ms, r.request_latency_ms])
      expect(stat.p50 <= stat.p90 && stat.p90 <= stat.p99).toBe(true);
    expect(r.output_tokens_per_s).toBeGreaterThan(0);
    expect(r.requests_per_s).toBeGreaterThan(0);

    // The server's side: 20 requests, never more than 4 at once, each a streaming chat completion.
    expect(srv.received).toBe(20);
    expect(srv.maxInFlight).toBeLessThanOrEqual(4);
    expect(srv.bodies[0]).toMatchObject({ model: 'test-model', stream: true, max_tokens: 20 });
    expect(srv.bodies[0]!.messages[0].content.split(' ')).toHaveLength(32);

    const gpu = run.gpu_telemetry.find((g: any) => g.uuid === uuid);
    expect(gpu, JSON.stringify(run.gpu_telemetry)).toMatchObject({
      node: 'infer-1',
      index: 0,
      samples: 1,
      avg_utilization: 87,
      avg_power_w: 310,
    });
  }, 90_000);

  it('request_rate mode sends on an open-loop schedule: requests overlap although each takes ~300 ms', async () => {
    const srv = await streamServer({ tokens: 20 });
    const start = await rest(s.url, a.adminToken).post('/ai-factory/aiperf/runs', {
      endpoint_url: srv.url,
      model: 'm',
      mode: 'request_rate',
      request_rate: 20,
      request_count: 10,
      output_tokens: 20,
    });
    expect(start.status, JSON.stringify(start.body)).toBe(202);
    const run = await finished(a.adminToken, start.body.id);
    expect(run.status).toBe('succeeded');
    expect(run.results).toMatchObject({ requests: 10, errors: 0 });
    expect(srv.received).toBe(10);
    expect(srv.maxInFlight).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it('a run against a closed port ends failed with every request counted as an error', async () => {
    const port = await closedPort();
    const start = await rest(s.url, a.adminToken).post('/ai-factory/aiperf/runs', {
      endpoint_url: `http://127.0.0.1:${port}`,
      model: 'm',
      mode: 'concurrency',
      concurrency: 2,
      request_count: 3,
    });
    expect(start.status).toBe(202);
    const run = await finished(a.adminToken, start.body.id);
    expect(run.status).toBe('failed');
    expect(run.results).toMatchObject({ requests: 3, errors: 3 });
    expect(run.results.ttft_ms.p50).toBeNull();
    expect(run.error).toMatch(/Every request failed/);
  }, 180_000);

  it('cancel stops a running run, which ends cancelled; cancelling again is a 409', async () => {
    // Each response takes ~10 s; the run would last a minute.
    const srv = await streamServer({ tokens: 1000, interTokenDelayMs: 10 });
    const api = rest(s.url, a.adminToken);
    const start = await api.post('/ai-factory/aiperf/runs', {
      endpoint_url: srv.url,
      model: 'm',
      mode: 'concurrency',
      concurrency: 2,
      duration_s: 60,
      output_tokens: 1000,
    });
    expect(start.status).toBe(202);
    await eventually(async () => srv.received >= 2, 30_000);
    expect((await api.get(`/ai-factory/aiperf/runs/${start.body.id}`)).body.status).toBe('running');

    const memberCancel = await rest(s.url, memberToken).post(`/ai-factory/aiperf/runs/${start.body.id}/cancel`);
    expect(memberCancel.status).toBe(403);
    const otherTenant = await rest(s.url, b.adminToken).post(`/ai-factory/aiperf/runs/${start.body.id}/cancel`);
    expect(otherTenant.status).toBe(404);

    const cancel = await api.post(`/ai-factory/aiperf/runs/${start.body.id}/cancel`);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.cancel_requested_at).toEqual(expect.any(String));
    const run = await finished(a.adminToken, start.body.id, 30_000);
    expect(run.status).toBe('cancelled');
    // The requests cut short are not the endpoint's errors; none of them completed.
    expect(run.results).toMatchObject({ errors: 0, requests: 0 });
    await eventually(async () => srv.inFlight === 0, 30_000);
    expect(srv.completed).toBe(0);

    const again = await api.post(`/ai-factory/aiperf/runs/${start.body.id}/cancel`);
    expect(again.status).toBe(409);
  }, 90_000);

  it('refuses an endpoint on a private address that is not allowlisted, naming the field (422)', async () => {
    const r = await rest(s.url, a.adminToken).post('/ai-factory/aiperf/runs', {
      endpoint_url: 'http://10.0.0.1:8000',
      model: 'm',
      mode: 'concurrency',
      request_count: 1,
    });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body.detail)).toContain('endpoint_url');
    expect(JSON.stringify(r.body.detail)).toMatch(/private/);
    expect(
      (await rest(s.url, a.adminToken).get('/ai-factory/aiperf/runs')).body.items.some(
        (x: any) => x.endpoint_url === 'http://10.0.0.1:8000',
      ),
    ).toBe(false);
  });

  it('422s name the REST field for inconsistent load settings', async () => {
    const api = rest(s.url, a.adminToken);
    const both = await api.post('/ai-factory/aiperf/runs', {
      endpoint_url: 'http://127.0.0.1:9',
      model: 'm',
      mode: 'concurrency',
      request_count: 1,
      duration_s: 5,
    });
    expect(both.status).toBe(422);
    expect(JSON.stringify(both.body.detail)).toContain('duration_s');
    const noRate = await api.post('/ai-factory/aiperf/runs', {
      endpoint_url: 'http://127.0.0.1:9',
      model: 'm',
      mode: 'request_rate',
      request_count: 1,
    });
    expect(noRate.status).toBe(422);
    expect(noRate.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'request_rate'] }));
    const badMode = await api.post('/ai-factory/aiperf/runs', {
      endpoint_url: 'http://127.0.0.1:9',
      model: 'm',
      mode: 'burst',
      request_count: 1,
    });
    expect(badMode.status).toBe(422);
    expect(JSON.stringify(badMode.body.detail)).toContain('mode');
  });

  it('members read runs but get 403 on starting one; another tenant gets 404; anonymous 401', async () => {
    const runs = await rest(s.url, a.adminToken).get('/ai-factory/aiperf/runs');
    expect(runs.status).toBe(200);
    const id = runs.body.items[0].id;
    expect((await rest(s.url, memberToken).get(`/ai-factory/aiperf/runs/${id}`)).status).toBe(200);
    expect((await rest(s.url, memberToken).get('/ai-factory/aiperf/runs')).body.items.length).toBe(
      runs.body.items.length,
    );
    const member = await rest(s.url, memberToken).post('/ai-factory/aiperf/runs', {
      endpoint_url: 'http://127.0.0.1:9',
      model: 'm',
      mode: 'concurrency',
      request_count: 1,
    });
    expect(member.status).toBe(403);
    expect((await rest(s.url, b.adminToken).get(`/ai-factory/aiperf/runs/${id}`)).status).toBe(404);
    expect((await rest(s.url, b.adminToken).get('/ai-factory/aiperf/runs')).body.items).toEqual([]);
    expect((await rest(s.url).get(`/ai-factory/aiperf/runs/${id}`)).status).toBe(401);
    const filtered = await rest(s.url, a.adminToken).get('/ai-factory/aiperf/runs?status=cancelled');
    expect(filtered.body.items.length).toBeGreaterThan(0);
    expect(filtered.body.items.every((x: any) => x.status === 'cancelled')).toBe(true);
  });

  it('GraphQL: startAiperfRun (admin), aiperfRun with UPPER_CASE enums, member FORBIDDEN, other tenant NOT_FOUND', async () => {
    const srv = await streamServer({ tokens: 5 });
    const started = await gql(
      s.url,
      a.adminToken,
      `mutation($input: StartAiperfRunInput!) { startAiperfRun(input: $input) { id status mode } }`,
      {
        input: {
          endpointUrl: srv.url,
          model: 'm',
          mode: 'CONCURRENCY',
          concurrency: 1,
          requestCount: 2,
          outputTokens: 5,
        },
      },
    );
    expect(started.errors).toBeUndefined();
    expect(started.data.startAiperfRun).toMatchObject({ status: 'QUEUED', mode: 'CONCURRENCY' });
    const id = started.data.startAiperfRun.id;
    const done = await eventually(
      async () => {
        const r = await gql(
          s.url,
          memberToken,
          `query($id: ID!) { aiperfRun(id: $id) { status results { requests errors ttftMs { p50 } itlMs { p50 } } } }`,
          { id },
        );
        return r.data?.aiperfRun.status === 'SUCCEEDED' ? r.data.aiperfRun : null;
      },
      60_000,
      100,
    );
    expect(done.results).toMatchObject({ requests: 2, errors: 0 });
    expect(done.results.ttftMs.p50).toBeGreaterThanOrEqual(90);

    const member = await gql(
      s.url,
      memberToken,
      `mutation { startAiperfRun(input: { endpointUrl: "${srv.url}", model: "m", mode: CONCURRENCY, requestCount: 1 }) { id } }`,
    );
    expect(member.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const other = await gql(s.url, b.adminToken, `query($id: ID!) { aiperfRun(id: $id) { id } }`, { id });
    expect(other.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const list = await gql(s.url, memberToken, `{ aiperfRuns(status: SUCCEEDED) { id status } }`);
    expect(list.data.aiperfRuns.map((r: any) => r.id)).toContain(id);
  }, 90_000);

  it('a run whose job was lost after commit is queued again by the sweeper and completes', async () => {
    const srv = await streamServer({ tokens: 3 });
    // Committed two minutes ago, never announced to the queue (Redis lost the job).
    const row = await s.app.rt.prisma.aiperfRun.create({
      data: {
        tenantId: a.tenantId,
        endpointUrl: srv.url,
        model: 'm',
        mode: 'concurrency',
        concurrency: 1,
        requestCount: 2,
        inputTokens: 4,
        outputTokens: 3,
        createdAt: new Date(s.app.rt.clock.now().getTime() - 120_000),
      },
    });
    expect(await redriveQueuedAiperfRuns(s.app.rt)).toBeGreaterThanOrEqual(1);
    const run = await finished(a.adminToken, row.id);
    expect(run).toMatchObject({ status: 'succeeded', results: { requests: 2, errors: 0 } });
  }, 180_000);

  it('a worker shutting down stops its running run, which ends failed saying why, instead of holding the process', async () => {
    const db = await createTestDatabase();
    const other = await startTestServer({ db, env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
    try {
      const t = await buildTenant(other.app.rt);
      const srv = await streamServer({ tokens: 1000 });
      const start = await rest(other.url, t.adminToken).post('/ai-factory/aiperf/runs', {
        endpoint_url: srv.url,
        model: 'm',
        mode: 'concurrency',
        concurrency: 1,
        duration_s: 600,
        output_tokens: 1000,
      });
      expect(start.status).toBe(202);
      await eventually(async () => srv.received >= 1, 30_000);
      await other.stop();
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query('SELECT status, error FROM "AiperfRun" WHERE id = $1', [start.body.id]);
      await client.end();
      expect(rows[0].status).toBe('failed');
      expect(rows[0].error).toMatch(/shut down/);
    } finally {
      await other.stop();
      await db.drop();
    }
  }, 90_000);
});
