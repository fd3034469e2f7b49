/**
 * Retention of single-use links (issue 40): password links (invitations and resets) and cluster invites
 * are removed LINK_KEEP_AFTER_END_DAYS after they were used or expired, by the retention task, while links
 * still live, and ended ones inside the keep period, stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildUser, type BuiltTenant } from './factories.js';
import { runRetention } from '../src/history/retention.js';
import { LINK_KEEP_AFTER_END_DAYS } from '../src/history/retention-rows.js';
import { issuePasswordLink, usePasswordLink } from '../src/users/password-links.js';
import { shiftedClock } from '../src/clock.js';
import { tokenHash } from '../src/secrets.js';

const DAY = 24 * 3600_000;

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

/** The service at `days` from now (its clock moved), for issuing and using links then. */
function at(days: number) {
  const offset = s.app.rt.clock.now().getTime() - Date.now() + days * DAY;
  return { prisma: s.app.rt.prisma, config: s.app.rt.config, clock: shiftedClock(offset) };
}

async function link(days: number, purpose: 'invite' | 'reset', use: boolean): Promise<string> {
  const rt = at(days);
  const user = await buildUser(s.app.rt, t.tenantId);
  const issued = await issuePasswordLink(rt, rt.prisma, user, purpose, null);
  if (use) await usePasswordLink(rt, new URL(issued.url).searchParams.get('token')!, 'a-new-password');
  return (await rt.prisma.passwordLink.findFirstOrThrow({ where: { userId: user.id } })).id;
}

async function clusterInvite(expiresInDays: number, usedDaysAgo: number | null): Promise<string> {
  const now = s.app.rt.clock.now().getTime();
  const row = await s.app.rt.prisma.clusterInvite.create({
    data: {
      tenantId: t.tenantId,
      tokenHash: tokenHash(`ci-${Math.random()}`),
      tokenPrefix: 'ci',
      expiresAt: new Date(now + expiresInDays * DAY),
      usedAt: usedDaysAgo === null ? null : new Date(now - usedDaysAgo * DAY),
    },
  });
  return row.id;
}

describe('retention of single-use links', () => {
  it(`removes password links and cluster invites ${LINK_KEEP_AFTER_END_DAYS} days after they ended, and keeps the rest`, async () => {
    const keep = LINK_KEEP_AFTER_END_DAYS;
    // Retention runs `keep + 2` days from now; a link that ended before `2` days from now is past its keep period.
    const gone = [
      await link(0, 'invite', true), // used now
      await link(0, 'reset', false), // expired an hour from now
      await link(-3, 'invite', false), // expired 72 h after three days ago
    ];
    const kept = [
      await link(keep + 1, 'reset', true), // used a day before retention runs
      await link(keep + 1.5, 'reset', false), // expired half a day before retention runs
      await link(keep + 2, 'invite', false), // still live
    ];
    const invitesGone = [await clusterInvite(1, null), await clusterInvite(10, 0.5)];
    const invitesKept = [await clusterInvite(keep + 1.5, null), await clusterInvite(keep + 3, null)];

    const report = await runRetention(s.app.rt, new Date(s.app.rt.clock.now().getTime() + (keep + 2) * DAY));
    const removed = (table: string) => report.tables.find((x) => x.table === table)?.rowsDeleted;
    expect(removed('PasswordLink')).toBe(gone.length);
    expect(removed('ClusterInvite')).toBe(invitesGone.length);
    expect(await s.app.rt.prisma.passwordLink.count({ where: { id: { in: gone } } })).toBe(0);
    expect(await s.app.rt.prisma.passwordLink.count({ where: { id: { in: kept } } })).toBe(kept.length);
    expect(await s.app.rt.prisma.clusterInvite.count({ where: { id: { in: invitesGone } } })).toBe(0);
    expect(await s.app.rt.prisma.clusterInvite.count({ where: { id: { in: invitesKept } } })).toBe(invitesKept.length);
  });
});
