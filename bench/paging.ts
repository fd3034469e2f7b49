/**
 * `npm run bench:paging`: from an accepted event to the first notification at an SMTP server and an ntfy
 * receiver, with the real service against real Postgres and Redis, next to a plain nodemailer send of the same
 * messages measured in the same run.
 *
 * 1. A fresh database (migrated), one tenant, POLICIES people each on call alone in a schedule of their own
 *    (weekly, Europe/Amsterdam), one escalation policy per schedule ([on call of it]) and one alert rule per policy
 *    (`bench.p<i>.*`, critical, that policy); each person's rules: email and push at once (their contact methods:
 *    an email address and an ntfy topic).
 * 2. Two child processes: the API (no workers) and a worker process; the receivers (an SMTP server from
 *    `smtp-server`, an HTTP server speaking ntfy's publish API: bench/lib/paging-peers.ts) run in this process.
 * 3. Single alert: SINGLE events one after another (each a new alert: its own source), each waiting for its email
 *    and push; prints event → email, event → push and event → first notification, p50/p95, from the POST to the
 *    arrival at the receiver. The goal (≤ 1 s at p95) is for an idle machine.
 * 4. Burst: BURST events at once (CONCURRENCY posts in flight) across the POLICIES rules; prints the same
 *    latencies and notifications (emails + pushes) per second from the first POST to the last arrival.
 * 5. Baseline: the burst's emails (same size and shape: the service's own email builder) sent with a pooled
 *    nodemailer transport (5 connections, as the service's) to the same SMTP server; prints emails/s and the
 *    service's emails/s ÷ that.
 *
 * Env: BENCH_SINGLE (20), BENCH_BURST (500), BENCH_POLICIES (50), BENCH_CONCURRENCY (50), TEST_DATABASE_ADMIN_URL /
 * TEST_REDIS_URL (or BENCH_*), as the tests.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { applyMigrations } from '../src/db/migrate.js';
import { createPrisma } from '../src/db/client.js';
import { createIngestKey } from '../src/tenants/ingest-keys.js';
import { createTenant } from '../src/tenants/tenants.js';
import { pageEmail } from '../src/notifications/channels.js';
import { ADMIN_URL, REDIS_URL, createBenchDatabase, serviceEnv } from './lib/env.js';
import { startChild, type Child } from './lib/child.js';
import { quantile } from './lib/load.js';
import { goalLine } from './lib/goal.js';
import { startPagingPeers, type Arrival } from './lib/paging-peers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SINGLE = num('BENCH_SINGLE', 20);
const BURST = num('BENCH_BURST', 500);
const POLICIES = num('BENCH_POLICIES', 50);
const CONCURRENCY = num('BENCH_CONCURRENCY', 50);
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(0)} ms` : 'n/a');

async function waitFor(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 5));
  }
  return cond();
}

/** The first arrival whose title names `source` (the alert's summary ends with `on <source>`). */
function arrivalOf(list: Arrival[], source: string): number | undefined {
  return list.find((a) => a.title.endsWith(` on ${source}`))?.at;
}

function line(label: string, values: number[]): void {
  console.log(
    `${label.padEnd(34)} p50 ${ms(quantile(values, 0.5)).padStart(8)}   p95 ${ms(quantile(values, 0.95)).padStart(8)}   max ${ms(quantile(values, 1))}   (n=${values.length})`,
  );
}

async function main(): Promise<void> {
  console.log(
    `paging benchmark: ${os.cpus().length} CPUs, ${SINGLE} single alerts, a burst of ${BURST} across ${POLICIES} policies, Postgres ${new URL(ADMIN_URL).host}, Redis ${new URL(REDIS_URL).host}, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  const db = await createBenchDatabase('ops_bench_paging');
  const peers = await startPagingPeers();
  const children: Array<Child<{ url: string }>> = [];
  const prisma = createPrisma(db.url, 4);
  try {
    await applyMigrations(db.url);
    const { tenant } = await createTenant(prisma, {
      name: 'bench-paging',
      adminEmail: 'admin@bench.local',
      adminPassword: crypto.randomBytes(12).toString('hex'),
    });
    const key = (await createIngestKey(prisma, tenant.id)).cleartext;
    const tenantId = tenant.id;
    for (let i = 0; i < POLICIES; i++) {
      const user = await prisma.user.create({
        data: { tenantId, email: `oncall-${i}@bench.local`, name: `On call ${i}`, role: 'member', kind: 'human' },
      });
      const schedule = await prisma.schedule.create({
        data: { tenantId, name: `schedule ${i}`, timeZone: 'Europe/Amsterdam' },
      });
      await prisma.scheduleLayer.create({
        data: {
          tenantId,
          scheduleId: schedule.id,
          position: 0,
          startsAt: new Date(Date.now() - 30 * 86400_000),
          rotation: 'weekly',
          handoffTime: '09:00',
          handoffWeekday: 1,
          userIds: [user.id],
        },
      });
      const policy = await prisma.escalationPolicy.create({ data: { tenantId, name: `policy ${i}` } });
      await prisma.escalationStep.create({
        data: { tenantId, policyId: policy.id, position: 0, targets: [{ type: 'schedule', id: schedule.id }] },
      });
      await prisma.alertRule.create({
        data: {
          tenantId,
          name: `rule ${i}`,
          kind: 'match',
          typeGlob: `bench.p${i}.*`,
          alertSeverity: 'critical',
          escalationPolicyId: policy.id,
        },
      });
      const email = await prisma.contactMethod.create({
        data: { tenantId, userId: user.id, kind: 'email', name: 'work', address: user.email },
      });
      const push = await prisma.contactMethod.create({
        data: { tenantId, userId: user.id, kind: 'ntfy', name: 'phone', address: peers.ntfyUrl, topic: `oncall-${i}` },
      });
      await prisma.notificationRule.createMany({
        data: [email, push].map((m) => ({
          tenantId,
          userId: user.id,
          urgency: 'high' as const,
          contactMethodId: m.id,
        })),
      });
    }

    const env = serviceEnv(db.url, {
      INGEST_RATE_PER_SECOND: '1000000',
      SMTP_URL: peers.smtpUrl,
      SMTP_FROM: 'Pager <pager@bench.local>',
      WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
    });
    const [api, worker] = await Promise.all([
      startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), { ...env, BENCH_ROLE: 'api' }),
      startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), { ...env, BENCH_ROLE: 'worker' }),
    ]);
    children.push(api, worker);

    const post = async (i: number, source: string): Promise<number> => {
      const t0 = Date.now();
      const r = await fetch(`${api.info.url}/api/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-key': key },
        body: JSON.stringify({ type: `bench.p${i % POLICIES}.down`, source, severity: 'critical', payload: { i } }),
      });
      await r.arrayBuffer();
      if (r.status !== 202) throw new Error(`POST /events answered ${r.status}`);
      return t0;
    };
    const measure = (posted: Map<string, number>) => {
      const email: number[] = [];
      const push: number[] = [];
      const first: number[] = [];
      for (const [source, t0] of posted) {
        const e = arrivalOf(peers.emails, source);
        const p = arrivalOf(peers.pushes, source);
        if (e !== undefined) email.push(e - t0);
        if (p !== undefined) push.push(p - t0);
        if (e !== undefined || p !== undefined) first.push(Math.min(e ?? Infinity, p ?? Infinity) - t0);
      }
      return { email, push, first };
    };

    // A warm-up alert (first connections, compiled statements), not counted.
    await post(0, 'warmup');
    await waitFor(() => arrivalOf(peers.emails, 'warmup') !== undefined, 60_000);

    // 3. Single alerts, one after another.
    const single = new Map<string, number>();
    for (let n = 0; n < SINGLE; n++) {
      const source = `single-${n}`;
      single.set(source, await post(n, source));
      await waitFor(
        () => arrivalOf(peers.emails, source) !== undefined && arrivalOf(peers.pushes, source) !== undefined,
        30_000,
      );
    }
    const s = measure(single);
    console.log('\nsingle alert, event accepted → arrival at the receiver');
    line('  → email (SMTP server)', s.email);
    line('  → push (ntfy receiver)', s.push);
    line('  → first notification', s.first);

    // 4. The burst.
    const burst = new Map<string, number>();
    const [emailsBefore, pushesBefore] = [peers.emails.length, peers.pushes.length];
    const burstStart = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < BURST) {
          const n = next++;
          const source = `burst-${n}`;
          burst.set(source, await post(n, source));
        }
      }),
    );
    const expected = emailsBefore + pushesBefore + 2 * BURST;
    const complete = await waitFor(() => peers.emails.length + peers.pushes.length >= expected, 300_000);
    const lastArrival = Math.max(...[...peers.emails, ...peers.pushes].map((a) => a.at));
    const b = measure(burst);
    const notified = peers.emails.length + peers.pushes.length - emailsBefore - pushesBefore;
    const burstSeconds = (lastArrival - burstStart) / 1000;
    console.log(
      `\nburst of ${BURST} alerts across ${POLICIES} policies (${CONCURRENCY} posts in flight)${complete ? '' : ` — INCOMPLETE: ${notified} of ${2 * BURST} arrived`}`,
    );
    line('  → email (SMTP server)', b.email);
    line('  → push (ntfy receiver)', b.push);
    line('  → first notification', b.first);
    const serviceEmailsPerSecond = b.email.length / burstSeconds;
    console.log(
      `  notifications per second: ${(notified / burstSeconds).toFixed(1)} (${b.email.length} emails, ${b.push.length} pushes in ${burstSeconds.toFixed(2)} s)`,
    );

    // 5. Baseline: the same emails through a pooled nodemailer transport.
    const url = new URL(peers.smtpUrl);
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections: 5,
      host: url.hostname,
      port: Number(url.port),
      secure: false,
      auth: { user: 'bench', pass: 'bench' },
    });
    const messages = Array.from({ length: BURST }, (_, n) =>
      pageEmail(`oncall-${n % POLICIES}@bench.local`, 'Pager <pager@bench.local>', crypto.randomUUID(), {
        title: `[CRITICAL] rule ${n % POLICIES}: bench.p${n % POLICIES}.down on baseline-${n}`,
        summary: `rule ${n % POLICIES}: bench.p${n % POLICIES}.down on baseline-${n}`,
        severity: 'critical',
        urgency: 'high',
        labels: {},
        annotations: {},
        runbookUrl: null,
        consoleUrl: `${api.info.url}/alerts/${crypto.randomUUID()}`,
        moreAlerts: 0,
        groupAlerts: [],
        groupId: crypto.randomUUID(),
        alertId: crypto.randomUUID(),
        actions: (['acknowledge', 'snooze', 'resolve'] as const).map((action) => ({
          action,
          label: action,
          url: `${api.info.url}/actions/${crypto.randomBytes(96).toString('base64url')}`,
          formToken: crypto.randomBytes(32).toString('hex'),
        })),
        test: false,
        update: false,
      }),
    );
    const baseStart = Date.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < messages.length) {
          const m = messages[sent++]!;
          await transport.sendMail({ from: 'Pager <pager@bench.local>', ...m });
        }
      }),
    );
    const baseSeconds = (Date.now() - baseStart) / 1000;
    transport.close();
    const baseRate = BURST / baseSeconds;
    console.log(
      `\nbaseline: nodemailer (pooled, 5 connections) sent the burst's ${BURST} emails: ${baseRate.toFixed(1)} emails/s`,
    );

    console.log('');
    console.log(goalLine('single alert → first notification p95', quantile(s.first, 0.95), { atMost: 1000 }, ' ms', 0));
    console.log(`  (the goal is for an idle machine; this run's load average was ${os.loadavg()[0].toFixed(1)})`);
    console.log(`service emails/s ÷ nodemailer emails/s: ${(serviceEmailsPerSecond / baseRate).toFixed(2)}×`);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await prisma.$disconnect();
    await peers.close();
    await db.drop();
  }
}

await main();
