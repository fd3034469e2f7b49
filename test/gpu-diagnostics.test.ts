/**
 * On-demand GPU diagnostics over real telemetry: samples recorded through the telemetry service (as the
 * collector's push would), diagnostics started over REST, the job run by the real worker, each check's
 * status read back. Host checks (`dcgmi diag`, `nvidia-smi -q`) are skipped with their reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { eventually, gql, rest } from './helpers/http.js';
import { buildTenant, buildToken, buildUser, principalOf, type BuiltTenant } from './factories.js';
import { createCtx } from '../src/context.js';
import { recordGpuSamples } from '../src/gpu/telemetry.js';
import { backfillRollupsIdle } from '../src/gpu/backfill-rollups.js';
import { redriveQueuedGpuDiagnostics } from '../src/gpu/diagnostics.js';
import type { GpuSampleInput } from '../src/gpu/samples.js';

let s: TestServer;
let a: BuiltTenant;
let b: BuiltTenant;
let memberToken: string;

const HEALTHY = 'GPU-diag-0000-0000-0000-00000000000a';
const XID = 'GPU-diag-0000-0000-0000-00000000000b';
const HOT = 'GPU-diag-0000-0000-0000-00000000000c';
const STALE = 'GPU-diag-0000-0000-0000-00000000000d';

function sample(
  uuid: string,
  index: number,
  node: string,
  agoMs: number,
  over: Partial<GpuSampleInput> = {},
): GpuSampleInput {
  return {
    uuid,
    node,
    index,
    model: 'NVIDIA H100 80GB HBM3',
    at: new Date(s.app.rt.clock.now().getTime() - agoMs),
    utilization: 55,
    memUsedMib: 20000,
    memTotalMib: 81559,
    temperatureC: 61,
    powerW: 250,
    powerLimitW: 700,
    xid: 0,
    eccDbe: 0,
    ...over,
  };
}

async function completed(token: string, id: string): Promise<any> {
  return eventually(
    async () => {
      const r = await rest(s.url, token).get(`/ai-factory/gpu/diagnostics/${id}`);
      return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : null;
    },
    30_000,
    100,
  );
}

function check(d: any, name: string, uuid: string | null): any {
  const c = d.checks.find((x: any) => x.name === name && x.gpu_uuid === uuid);
  expect(c, `${name} for ${uuid} in ${JSON.stringify(d.checks)}`).toBeTruthy();
  return c;
}

beforeAll(async () => {
  s = await startTestServer();
  const rt = s.app.rt;
  a = await buildTenant(rt);
  b = await buildTenant(rt);
  memberToken = await buildToken(rt, await buildUser(rt, a.tenantId));
  const ctx = createCtx(rt, principalOf(a.admin), 'diag-seed');
  // Node n1: a healthy GPU and one whose latest sample carries XID 79 (fallen off the bus).
  // Node n2: a GPU that ran at 88 °C ten minutes ago (rolled up) and is 85 °C now; a GPU silent for an hour.
  await recordGpuSamples(
    ctx,
    [
      sample(HEALTHY, 0, 'n1', 20_000),
      sample(HEALTHY, 0, 'n1', 10_000),
      sample(XID, 1, 'n1', 20_000),
      sample(XID, 1, 'n1', 10_000, { xid: 79 }),
      sample(HOT, 0, 'n2', 10 * 60_000, { temperatureC: 88 }),
      sample(HOT, 0, 'n2', 10_000, { temperatureC: 85, powerW: 699, eccDbe: 2 }),
      sample(STALE, 1, 'n2', 3600_000),
    ],
    'nvidia-smi',
  );
  // Back-filled history is rolled up after the samples commit, off the push path: wait for the roller.
  await backfillRollupsIdle(rt);
}, 180_000);

afterAll(async () => {
  await s?.stop();
});

describe('GPU diagnostics', () => {
  it('a healthy GPU passes every telemetry check at level 3; host checks are skipped with the reason', async () => {
    const start = await rest(s.url, a.adminToken).post('/ai-factory/gpu/diagnostics', { gpu: HEALTHY, level: 3 });
    expect(start.status, JSON.stringify(start.body)).toBe(202);
    expect(start.body).toMatchObject({ id: expect.any(String), status: 'queued', level: 3, gpu: HEALTHY, node: null });
    const d = await completed(a.adminToken, start.body.id);
    expect(d.status).toBe('completed');
    for (const name of [
      'telemetry_recent',
      'xid_last_hour',
      'ecc_double_bit',
      'temperature',
      'power',
      'memory',
      'utilization',
      'thermal_history_24h',
    ]) {
      expect(check(d, name, HEALTHY).status, name).toBe('pass');
    }
    // The seed back-filled the 1-minute rollups (its oldest sample is an hour old): the 24 h peak is 61 °C.
    expect(check(d, 'thermal_history_24h', HEALTHY).detail).toContain('61');
    for (const name of ['nvidia_smi_query', 'dcgmi_diag']) {
      const c = check(d, name, null);
      expect(c.status).toBe('skip');
      expect(c.detail).toContain('needs the collector on the host');
    }
    expect(check(d, 'dcgmi_diag', null).detail).toContain('-r 3');
    expect(d.result).toBe('pass');
    expect(d.finished_at).toEqual(expect.any(String));
  }, 180_000);

  it('a GPU with an XID in the last hour fails the XID check with the catalogue meaning; the node result is fail', async () => {
    const start = await rest(s.url, a.adminToken).post('/ai-factory/gpu/diagnostics', { node: 'n1', level: 1 });
    expect(start.status).toBe(202);
    expect(start.body.gpu_ids).toHaveLength(2);
    const d = await completed(a.adminToken, start.body.id);
    const xid = check(d, 'xid_last_hour', XID);
    expect(xid.status).toBe('fail');
    expect(xid.detail).toContain('XID 79');
    expect(xid.detail).toContain('fallen off the bus');
    expect(check(d, 'xid_last_hour', HEALTHY).status).toBe('pass');
    // Level 1 runs no temperature or power checks.
    expect(d.checks.some((c: any) => c.name === 'temperature')).toBe(false);
    expect(d.result).toBe('fail');
  }, 180_000);

  it('temperature near the limit warns, ECC double-bit errors fail, the 24 h peak comes from rollups, a silent GPU fails telemetry_recent', async () => {
    const start = await rest(s.url, a.adminToken).post('/ai-factory/gpu/diagnostics', { node: 'n2', level: 3 });
    const d = await completed(a.adminToken, start.body.id);
    expect(check(d, 'temperature', HOT)).toMatchObject({ status: 'warn' });
    expect(check(d, 'temperature', HOT).detail).toContain('85');
    expect(check(d, 'ecc_double_bit', HOT).status).toBe('fail');
    expect(check(d, 'power', HOT).status).toBe('warn');
    expect(check(d, 'thermal_history_24h', HOT)).toMatchObject({ status: 'warn' });
    expect(check(d, 'thermal_history_24h', HOT).detail).toContain('88');
    expect(check(d, 'telemetry_recent', STALE).status).toBe('fail');
    expect(d.result).toBe('fail');
  }, 180_000);

  it('members read diagnostics but get 403 on starting one; another tenant gets 404', async () => {
    const list = await rest(s.url, memberToken).get('/ai-factory/gpu/diagnostics');
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThanOrEqual(3);
    const id = list.body.items[0].id;
    expect((await rest(s.url, memberToken).get(`/ai-factory/gpu/diagnostics/${id}`)).status).toBe(200);
    expect(
      (await rest(s.url, memberToken).post('/ai-factory/gpu/diagnostics', { gpu: HEALTHY, level: 1 })).status,
    ).toBe(403);
    expect((await rest(s.url, b.adminToken).get(`/ai-factory/gpu/diagnostics/${id}`)).status).toBe(404);
    expect((await rest(s.url, b.adminToken).get('/ai-factory/gpu/diagnostics')).body.items).toEqual([]);
    expect((await rest(s.url).get(`/ai-factory/gpu/diagnostics/${id}`)).status).toBe(401);
  });

  it("an unknown GPU, another tenant's GPU, both or neither target, or a bad level are 422 naming the field", async () => {
    const api = rest(s.url, a.adminToken);
    const unknown = await api.post('/ai-factory/gpu/diagnostics', { gpu: 'GPU-nope', level: 1 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'gpu'] }));
    const foreign = await rest(s.url, b.adminToken).post('/ai-factory/gpu/diagnostics', { gpu: HEALTHY, level: 1 });
    expect(foreign.status).toBe(422);
    expect(JSON.stringify(foreign.body.detail)).toContain('gpu');
    const unknownNode = await api.post('/ai-factory/gpu/diagnostics', { node: 'n9', level: 1 });
    expect(unknownNode.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'node'] }));
    const both = await api.post('/ai-factory/gpu/diagnostics', { gpu: HEALTHY, node: 'n1', level: 1 });
    expect(both.status).toBe(422);
    const neither = await api.post('/ai-factory/gpu/diagnostics', { level: 1 });
    expect(neither.status).toBe(422);
    expect(JSON.stringify(neither.body.detail)).toContain('gpu');
    const level = await api.post('/ai-factory/gpu/diagnostics', { gpu: HEALTHY, level: 4 });
    expect(level.status).toBe(422);
    expect(JSON.stringify(level.body.detail)).toContain('level');
  });

  it('GraphQL parity: startGpuDiagnostic (admin) and gpuDiagnostic with UPPER_CASE enums; member FORBIDDEN', async () => {
    const started = await gql(
      s.url,
      a.adminToken,
      `mutation($input: StartGpuDiagnosticInput!) { startGpuDiagnostic(input: $input) { id status } }`,
      { input: { gpu: XID, level: 2 } },
    );
    expect(started.errors).toBeUndefined();
    expect(started.data.startGpuDiagnostic.status).toBe('QUEUED');
    const id = started.data.startGpuDiagnostic.id;
    const d = await eventually(
      async () => {
        const r = await gql(
          s.url,
          memberToken,
          `query($id: ID!) { gpuDiagnostic(id: $id) { status result checks { name gpuUuid status detail } } }`,
          { id },
        );
        return r.data?.gpuDiagnostic.status === 'COMPLETED' ? r.data.gpuDiagnostic : null;
      },
      30_000,
      100,
    );
    expect(d.result).toBe('FAIL');
    expect(d.checks.find((c: any) => c.name === 'xid_last_hour')).toMatchObject({ status: 'FAIL', gpuUuid: XID });
    expect(d.checks.find((c: any) => c.name === 'dcgmi_diag')).toMatchObject({ status: 'SKIP', gpuUuid: null });
    const member = await gql(
      s.url,
      memberToken,
      `mutation { startGpuDiagnostic(input: { gpu: "${XID}", level: 1 }) { id } }`,
    );
    expect(member.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const other = await gql(s.url, b.adminToken, `query($id: ID!) { gpuDiagnostic(id: $id) { id } }`, { id });
    expect(other.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const list = await gql(s.url, memberToken, `{ gpuDiagnostics(limit: 2) { id } }`);
    expect(list.data.gpuDiagnostics).toHaveLength(2);
    expect(list.data.gpuDiagnostics[0].id).toBe(id);
  }, 60_000);

  it('a request whose job was lost after commit is queued again by the sweeper and completes', async () => {
    const gpu = await s.app.rt.prisma.gpu.findFirstOrThrow({ where: { tenantId: a.tenantId, uuid: HEALTHY } });
    const row = await s.app.rt.prisma.gpuDiagnostic.create({
      data: {
        tenantId: a.tenantId,
        gpuIds: [gpu.id],
        targetGpu: HEALTHY,
        level: 1,
        createdAt: new Date(s.app.rt.clock.now().getTime() - 120_000),
      },
    });
    expect(await redriveQueuedGpuDiagnostics(s.app.rt)).toBeGreaterThanOrEqual(1);
    const d = await completed(a.adminToken, row.id);
    expect(d).toMatchObject({ status: 'completed', result: 'pass' });
  }, 180_000);
});
