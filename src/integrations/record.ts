/**
 * Recording what a provider observed: each signal becomes a timeline event; a signal about a remote
 * alert opens or bumps one of our alerts (deduplicated by the remote key, e.g. Alertmanager's
 * fingerprint) when firing and resolves it when resolved. Events, alert changes and the integration's
 * `lastEventAt` commit together; announcements (eventAdded, rule evaluation, alertChanged, outbox)
 * follow the commit.
 *
 * A maintenance window covering the alert (by source, labels or the whole tenant) suppresses it.
 *
 * Each event about a remote alert carries the directives of src/alerts/labels.ts: `dedup_key` (our
 * alert key for the remote alert) and `event_action` (`resolve`, `acknowledge`). When an enabled match
 * rule of the tenant triggers on a firing signal's event, the alert is left to that rule (rule
 * evaluation opens it under the same key, with the rule's severity and summary), so a rule over
 * `alertmanager.*` gives one alert per upstream alert and never a second one beside ours.
 *
 * Pulls record only changes (a newly firing or a resolved alert, or a plain event), because a pull
 * sees the same firing alerts again and again; pushes record every notification as sent.
 */
import type { Runtime } from '../runtime.js';
import type { Event, Prisma } from '../generated/prisma/client.js';
import {
  actOnLiveAlertByEvent,
  announceAlertChanges,
  openOrBumpAlert,
  transitionAlert,
  type AlertChange,
} from '../alerts/lifecycle.js';
import { alertAnnotationsOf, DEDUP_KEY_LABEL, EVENT_ACTION_LABEL } from '../alerts/labels.js';
import { matchableOf, ruleStep } from '../rules/plan.js';
import { announceTimelineEvents } from '../events/announce.js';
import { inhibitedBy, loadSilencesByTenant, noteOpenedAlert, silencedBy } from '../routing/mute.js';
import { loadInhibitionsByTenant } from '../routing/inhibition.js';
import type { Signal } from './types.js';
import { openRoutedGroups } from '../routing/route-group.js';

export interface IntegrationRef {
  id: string;
  tenantId: string;
  provider: string;
  name: string;
}

export interface RecordResult {
  events: number;
  alertsOpened: number;
  alertsResolved: number;
}

/** Our alert dedup key for a remote alert of this integration. */
export function alertKeyOf(integrationId: string, key: string): string {
  return `integration:${integrationId}:${key}`;
}

export async function recordSignals(
  rt: Runtime,
  integ: IntegrationRef,
  signals: Signal[],
  opts: { via: 'webhook' | 'system'; onlyChanges: boolean; resolveMissing: boolean },
): Promise<RecordResult> {
  const source = `${integ.provider}/${integ.name}`.slice(0, 200);
  const changes: AlertChange[] = [];
  const outboxIds: Array<string | null> = [];
  const events: Event[] = [];
  let opened = 0;
  let resolved = 0;
  // The root client with the integration row's own tenant id (like a worker processing a job).
  await rt.prisma.$transaction(
    async (tx) => {
      const now = rt.clock.now();
      const directives = (s: Signal): Record<string, string> =>
        !s.alert
          ? {}
          : {
              [DEDUP_KEY_LABEL]: alertKeyOf(integ.id, s.alert.key),
              ...(s.alert.state === 'firing'
                ? {}
                : { [EVENT_ACTION_LABEL]: s.alert.state === 'resolved' ? 'resolve' : 'acknowledge' }),
            };
      const insert = (
        s: Pick<Signal, 'type' | 'summary' | 'severity' | 'labels' | 'payload'>,
        extra: Record<string, string> = {},
      ) =>
        tx.event.create({
          data: {
            tenantId: integ.tenantId,
            type: s.type,
            module: 'integrations',
            source,
            summary: s.summary,
            severity: s.severity,
            labels: { ...s.labels, integration_id: integ.id, ...extra },
            payload: s.payload as Prisma.InputJsonValue,
            receivedVia: opts.via,
            receivedAt: now,
          },
        });
      const liveOf = (key: string) =>
        tx.alert.findUnique({
          where: { tenantId_liveDedupKey: { tenantId: integ.tenantId, liveDedupKey: alertKeyOf(integ.id, key) } },
        });
      const seen = new Set<string>();
      // Silences (maintenance windows among them) mute alerts opened from integrations as they do rule alerts.
      const anyFiring = signals.some((x) => x.alert?.state === 'firing');
      const silences = anyFiring ? await loadSilencesByTenant(tx, [integ.tenantId], now) : new Map();
      const inhibitions = anyFiring ? await loadInhibitionsByTenant(tx, [integ.tenantId]) : new Map();
      const rules = anyFiring
        ? await tx.alertRule.findMany({ where: { tenantId: integ.tenantId, enabled: true, kind: 'match' } })
        : [];
      for (const s of signals) {
        if (!s.alert) {
          events.push(await insert(s));
          continue;
        }
        seen.add(s.alert.key);
        const live = await liveOf(s.alert.key);
        if (opts.onlyChanges && (s.alert.state === 'firing' ? !!live : !live)) continue;
        const ev = await insert(s, directives(s));
        events.push(ev);
        if (s.alert.state === 'firing' && rules.some((r) => ruleStep(r, matchableOf(ev), 'trigger') === 'trigger'))
          continue; // the rule opens it
        if (s.alert.state === 'firing') {
          const r = await openOrBumpAlert(tx, {
            now,
            tenantId: integ.tenantId,
            ruleId: null,
            dedupKey: alertKeyOf(integ.id, s.alert.key),
            severity: s.severity,
            summary: s.summary,
            source,
            deviceId: null,
            labels: { ...s.labels, integration_id: integ.id },
            annotations: s.annotations ?? alertAnnotationsOf(s.payload),
            seenAt: ev.receivedAt,
            eventIds: [ev.id],
            silencedBy: silencedBy(
              silences,
              {
                tenantId: integ.tenantId,
                labels: { ...s.labels, integration_id: integ.id },
                severity: s.severity,
                source,
              },
              now,
            ),
            inhibitedBy: inhibitedBy(inhibitions, {
              tenantId: integ.tenantId,
              labels: s.labels,
              severity: s.severity,
              source,
            }),
          });
          if (r.opened) await noteOpenedAlert(tx, inhibitions, r.alert, now);
          // The routing tree forms its groups (src/routing/route-group.ts).
          const groups = r.opened ? await openRoutedGroups(tx, r.alert, now) : [];
          changes.push({ change: r.opened ? 'opened' : 'bumped', alert: r.alert, groups });
          outboxIds.push(r.outboxId);
          if (r.opened) opened++;
        } else {
          const action = s.alert.state === 'resolved' ? 'resolve' : 'acknowledge';
          const t = await actOnLiveAlertByEvent(tx, {
            tenantId: integ.tenantId,
            dedupKey: alertKeyOf(integ.id, s.alert.key),
            action,
            eventId: ev.id,
            now,
            note: `${action === 'resolve' ? 'Resolved' : 'Acknowledged'} by ${source}.`,
          });
          if (t) {
            changes.push(t.change);
            outboxIds.push(t.outboxId);
            if (action === 'resolve') resolved++;
          }
        }
      }
      if (opts.resolveMissing) {
        const prefix = alertKeyOf(integ.id, '');
        const stillLive = await tx.alert.findMany({
          where: { tenantId: integ.tenantId, liveDedupKey: { startsWith: prefix } },
        });
        for (const a of stillLive) {
          const key = a.liveDedupKey!.slice(prefix.length);
          if (seen.has(key)) continue;
          const ev = await insert(
            {
              type: `${integ.provider}.resolved`,
              summary: `Resolved: ${a.summary}`.slice(0, 1000),
              severity: 'info',
              labels: {},
              payload: { status: 'resolved', key, alert_id: a.id },
            },
            { [DEDUP_KEY_LABEL]: a.liveDedupKey!, [EVENT_ACTION_LABEL]: 'resolve' },
          );
          events.push(ev);
          await tx.alertEvent.create({ data: { alertId: a.id, eventId: ev.id } });
          const t = await transitionAlert(tx, a, {
            action: 'resolve',
            actorId: null,
            actorEventId: ev.id,
            now,
            note: `No longer active in ${source}.`,
          });
          changes.push(t.change);
          outboxIds.push(t.outboxId);
          resolved++;
        }
      }
      if (events.length)
        await tx.integration.updateMany({
          where: { id: integ.id, tenantId: integ.tenantId },
          data: { lastEventAt: now },
        });
    },
    { timeout: 30_000 },
  );
  await announceAlertChanges(rt, changes, outboxIds);
  await announceTimelineEvents(rt, events);
  return { events: events.length, alertsOpened: opened, alertsResolved: resolved };
}
