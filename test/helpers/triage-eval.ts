/**
 * Runs one labelled incident (test/helpers/triage-incidents.ts) against a real server through its
 * public API, each in a tenant of its own: devices, change terms and the rule over GraphQL/REST,
 * events through ingest, GPU samples and device intents; then `POST /alerts/:id/triage`. Steps are
 * dated back with the root client (arrival time cannot be set through the API), the real cause
 * further back than its distractors, so the distractors are always closer to the alert.
 */
import { buildTenant } from '../factories.js';
import { eventually, gql, rest } from './http.js';
import type { TestServer } from './server.js';
import type { Incident, Step } from './triage-incidents.js';

export interface Outcome {
  incident: Incident;
  /** The event ids the cause step wrote (empty for no-cause incidents). */
  causeIds: string[];
  triage: any;
  top: any | null;
  correct: boolean;
  reason: string;
}

function fill<T>(v: T, vars: Record<string, string>): T {
  return JSON.parse(JSON.stringify(v).replace(/\$([A-Z]+)/g, (m, k) => vars[k] ?? m)) as T;
}

/** Runs the incident and judges the triage: top-1 on the cause, never `high` without one. */
export async function runIncident(s: TestServer, inc: Incident): Promise<Outcome> {
  const t = await buildTenant(s.app.rt);
  const db = s.app.rt.prisma;
  const vars: Record<string, string> = {};
  const g = async (q: string, v?: Record<string, unknown>) => {
    const r = await gql(s.url, t.adminToken, q, v);
    if (r.errors) throw new Error(`${inc.name}: ${JSON.stringify(r.errors)}`);
    return r.data;
  };
  const deviceIds: Record<string, string> = {};
  for (const d of inc.devices ?? [])
    deviceIds[d.name] = (
      await g('mutation($i: DeviceInput!) { createDevice(input: $i) { id } }', { i: d })
    ).createDevice.id;
  if (inc.integration)
    vars.INTEGRATION = (
      await db.integration.create({ data: { tenantId: t.tenantId, provider: 'alertmanager', name: 'prod-am' } })
    ).id;
  if (inc.changeTypes)
    expect200(
      await rest(s.url, t.adminToken).put('/assistant/triage-settings', { change_types: inc.changeTypes }),
      inc,
    );
  await g('mutation($i: CreateAlertRuleInput!) { createAlertRule(input: $i) { id } }', {
    i: {
      name: inc.name.slice(0, 100),
      typeGlob: inc.symptom.type,
      alertSeverity: 'CRITICAL',
      ...(inc.dedupKeyTemplate ? { dedupKeyTemplate: inc.dedupKeyTemplate } : {}),
    },
  });
  const gpu = (node: string, uuid: string, xid?: number) =>
    rest(s.url).post(
      '/ai-factory/gpu/samples',
      { node, samples: [{ uuid, index: Number(uuid.slice(-1)) || 0, ...(xid ? { xid } : {}) }] },
      { headers: { 'x-service-key': t.ingestKey } },
    );
  for (const x of inc.gpus ?? []) expect200(await gpu(x.node, x.uuid), inc);

  const run = async (step: Step, minutes: number): Promise<string[]> => {
    const before = new Set(
      (await db.event.findMany({ where: { tenantId: t.tenantId }, select: { id: true } })).map((e) => e.id),
    );
    if ('ingest' in step)
      expect200(
        await rest(s.url).post('/events', fill(step.ingest, vars), { headers: { 'x-service-key': t.ingestKey } }),
        inc,
      );
    else if ('gpu' in step) expect200(await gpu(step.gpu.node, step.gpu.uuid, step.gpu.xid), inc);
    else
      await g('mutation($i: SetDeviceIntentInput!) { setDeviceIntent(input: $i) { id } }', {
        i: { deviceId: deviceIds[step.intent], config: `hostname ${step.intent}\nntp server 10.0.0.${minutes}\n` },
      });
    const ids = await eventually(async () => {
      const now = (
        await db.event.findMany({ where: { tenantId: t.tenantId }, select: { id: true, type: true } })
      ).filter(
        (e) =>
          !before.has(e.id) &&
          !e.type.startsWith('sot.reconcile') &&
          e.type !== 'sot.config_observed' &&
          e.type !== 'sot.drift_detected' &&
          e.type !== 'sot.in_sync',
      );
      return now.length ? now.map((e) => e.id) : null;
    });
    await db.event.updateMany({
      where: { id: { in: ids } },
      data: { receivedAt: new Date(s.app.rt.clock.now().getTime() - minutes * 60_000) },
    });
    return ids;
  };
  const causeIds = inc.cause ? await run(inc.cause.step, inc.cause.minutes) : [];
  for (const d of inc.distractors) await run(d.step, d.minutes);

  const symptom = await rest(s.url).post(
    '/events',
    { severity: 'critical', ...fill(inc.symptom, vars) },
    { headers: { 'x-service-key': t.ingestKey } },
  );
  expect200(symptom, inc);
  const alert = await eventually(
    async () => (await db.alertEvent.findFirst({ where: { eventId: symptom.body.id } }))?.alertId,
  );
  const r = await rest(s.url, t.adminToken).post(`/alerts/${alert}/triage`);
  if (r.status !== 201) throw new Error(`${inc.name}: triage answered ${r.status} ${JSON.stringify(r.body)}`);
  const triage = r.body;
  const top = triage.likely_causes[0] ?? null;
  let correct: boolean;
  let reason: string;
  if (inc.cause) {
    correct = !!top && causeIds.includes(top.evidence[0]?.id);
    reason = correct
      ? `top-1: ${top.cause} (${top.confidence})`
      : `top-1 was ${top ? `${top.cause} [${top.evidence[0]?.id}]` : 'nothing'}`;
  } else {
    const high = triage.likely_causes.filter((c: any) => c.confidence === 'high');
    correct = high.length === 0 && /no related change found/i.test(triage.summary + ' ' + triage.checks[0].message);
    reason = correct
      ? 'no high claim; said no related change was found'
      : `claimed ${JSON.stringify(high.map((c: any) => c.cause))} / ${triage.summary}`;
  }
  return { incident: inc, causeIds, triage, top, correct, reason };
}

function expect200(r: { status: number; body: unknown }, inc: Incident): void {
  if (r.status >= 300) throw new Error(`${inc.name}: setup request answered ${r.status} ${JSON.stringify(r.body)}`);
}

/** Prints the accuracy table (the figure the issue asks to see). */
export function report(label: string, outcomes: Outcome[]): number {
  const ok = outcomes.filter((o) => o.correct).length;
  const lines = outcomes.map(
    (o) => `${o.correct ? 'ok  ' : 'FAIL'} [${o.incident.relation}] ${o.incident.name}: ${o.reason}`,
  );
  console.log(
    `${label}: ${ok}/${outcomes.length} correct (accuracy ${((100 * ok) / outcomes.length).toFixed(1)} %)\n${lines.join('\n')}`,
  );
  return ok / outcomes.length;
}
