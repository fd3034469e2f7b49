/**
 * Alertmanager API v2 `POST /api/v2/alerts`, as Prometheus sends it: a list of alerts
 * (`labels`, `annotations`, `startsAt`, `endsAt`, `generatorURL`), authenticated with a tenant ingest
 * key as `Authorization: Bearer`. Each alert becomes an event and opens, bumps or resolves one of our
 * alerts, keyed by the fingerprint of its label set as the Alertmanager integration keys upstream
 * alerts (src/integrations/providers/common.ts). An `endsAt` at or before now (the service clock)
 * resolves it; Prometheus sends a future `endsAt` while the rule fires and the resolve time after.
 *
 * Silences and maintenance windows apply as on every other path: a muted alert is recorded, marked,
 * and pages no one. Events and alert changes commit together; announcements follow the commit.
 */
import type { Runtime } from '../runtime.js';
import type { Event, Prisma } from '../generated/prisma/client.js';
import { ValidationFailed, type FieldProblem } from '../errors.js';
import { actOnLiveAlertByEvent, announceAlertChanges, openOrBumpAlert, type AlertChange } from '../alerts/lifecycle.js';
import { DEDUP_KEY_LABEL, EVENT_ACTION_LABEL } from '../alerts/labels.js';
import { announceTimelineEvents } from '../events/announce.js';
import { alertSummary, labelsFingerprint, severityOf, stringMap } from '../integrations/providers/common.js';
import { inhibitedBy, loadSilencesByTenant, noteOpenedAlert, silencedBy } from '../routing/mute.js';
import { loadInhibitionsByTenant } from '../routing/inhibition.js';
import { openRoutedGroups } from '../routing/route-group.js';

/** The source our alerts from this API carry. */
export const ALERTMANAGER_API_SOURCE = 'alertmanager-api';
/** Most alerts one POST may carry (Prometheus batches up to 64 by default; 1 MiB bounds the body too). */
export const MAX_ALERTS_PER_POST = 1000;

/** Our alert dedup key for an alert posted to the API. */
export function alertmanagerDedupKey(fingerprint: string): string {
  return `alertmanager:${fingerprint}`;
}

interface PostedAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string | null;
  endsAt: string | null;
  generatorURL: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const validTime = (v: unknown) => typeof v === 'string' && v.length <= 64 && !Number.isNaN(Date.parse(v));

/** Checks the body as Alertmanager's `postableAlerts`; problems name fields of the posted document. */
export function parsePostedAlerts(body: unknown): PostedAlert[] {
  if (!Array.isArray(body))
    throw new ValidationFailed([{ loc: [], msg: 'must be a JSON array of alerts (Alertmanager API v2)' }]);
  if (body.length > MAX_ALERTS_PER_POST)
    throw new ValidationFailed([{ loc: [], msg: `at most ${MAX_ALERTS_PER_POST} alerts per request` }]);
  const problems: FieldProblem[] = [];
  const out: PostedAlert[] = [];
  body.forEach((a: unknown, i) => {
    const at = (f: string, msg: string) => problems.push({ loc: [String(i), f], msg });
    if (!isObject(a)) return problems.push({ loc: [String(i)], msg: 'must be an object' });
    if (!isObject(a.labels) || Object.keys(a.labels).length === 0) at('labels', 'must be a non-empty object');
    else if (Object.values(a.labels).some((v) => typeof v !== 'string')) at('labels', 'values must be strings');
    if (a.annotations !== undefined && !isObject(a.annotations)) at('annotations', 'must be an object');
    for (const f of ['startsAt', 'endsAt'] as const)
      if (a[f] !== undefined && a[f] !== null && !validTime(a[f])) at(f, 'must be an RFC 3339 date-time');
    if (a.generatorURL !== undefined && typeof a.generatorURL !== 'string') at('generatorURL', 'must be a string');
    out.push({
      labels: stringMap(a.labels, 100),
      annotations: stringMap(a.annotations, 50),
      startsAt: typeof a.startsAt === 'string' ? a.startsAt : null,
      endsAt: typeof a.endsAt === 'string' ? a.endsAt : null,
      generatorURL: typeof a.generatorURL === 'string' ? a.generatorURL.slice(0, 2048) : null,
    });
  });
  if (problems.length) throw new ValidationFailed(problems);
  return out;
}

export interface PostResult {
  events: number;
  opened: number;
  resolved: number;
}

/** Records the posted alerts for the tenant (see the module comment). */
export async function receiveAlertmanagerAlerts(rt: Runtime, tenantId: string, body: unknown): Promise<PostResult> {
  const alerts = parsePostedAlerts(body);
  const changes: AlertChange[] = [];
  const outboxIds: Array<string | null> = [];
  const events: Event[] = [];
  const result: PostResult = { events: 0, opened: 0, resolved: 0 };
  if (!alerts.length) return result;
  // The root client with the key's tenant, like the ingest path (the principal carries no user).
  await rt.prisma.$transaction(
    async (tx) => {
      const now = rt.clock.now();
      const silences = await loadSilencesByTenant(tx, [tenantId], now);
      const inhibitions = await loadInhibitionsByTenant(tx, [tenantId]);
      for (const a of alerts) {
        const fingerprint = labelsFingerprint(a.labels);
        const dedupKey = alertmanagerDedupKey(fingerprint);
        const resolved = a.endsAt !== null && Date.parse(a.endsAt) <= now.getTime();
        const state = resolved ? 'resolved' : 'firing';
        const severity = resolved ? 'info' : severityOf(a.labels, 'warning');
        const summary = (resolved ? 'Resolved: ' : '') + alertSummary(a.labels, a.annotations);
        const ev = await tx.event.create({
          data: {
            tenantId,
            type: `alertmanager.${state}`,
            module: 'alertmanager',
            source: ALERTMANAGER_API_SOURCE,
            summary,
            severity,
            labels: {
              ...a.labels,
              [DEDUP_KEY_LABEL]: dedupKey,
              ...(resolved ? { [EVENT_ACTION_LABEL]: 'resolve' } : {}),
            },
            payload: {
              status: state,
              fingerprint,
              annotations: a.annotations,
              starts_at: a.startsAt,
              ends_at: a.endsAt,
              generator_url: a.generatorURL,
            } as Prisma.InputJsonValue,
            receivedVia: 'ingest',
            receivedAt: now,
          },
        });
        events.push(ev);
        if (resolved) {
          const t = await actOnLiveAlertByEvent(tx, {
            tenantId,
            dedupKey,
            action: 'resolve',
            eventId: ev.id,
            now,
            note: `Resolved: endsAt ${a.endsAt} has passed (Alertmanager API).`,
          });
          if (t) {
            changes.push(t.change);
            outboxIds.push(t.outboxId);
            result.resolved++;
          }
          continue;
        }
        const r = await openOrBumpAlert(tx, {
          now,
          tenantId,
          ruleId: null,
          dedupKey,
          severity,
          summary,
          source: ALERTMANAGER_API_SOURCE,
          deviceId: null,
          labels: a.labels,
          annotations: { ...a.annotations, ...(a.generatorURL ? { generator_url: a.generatorURL } : {}) },
          seenAt: now,
          eventIds: [ev.id],
          silencedBy: silencedBy(
            silences,
            { tenantId, labels: a.labels, severity, source: ALERTMANAGER_API_SOURCE },
            now,
          ),
          inhibitedBy: inhibitedBy(inhibitions, {
            tenantId,
            labels: a.labels,
            severity,
            source: ALERTMANAGER_API_SOURCE,
          }),
        });
        if (r.opened) await noteOpenedAlert(tx, inhibitions, r.alert, now);
        // The routing tree forms its groups (src/routing/route-group.ts).
        const groups = r.opened ? await openRoutedGroups(tx, r.alert, now) : [];
        changes.push({ change: r.opened ? 'opened' : 'bumped', alert: r.alert, groups });
        outboxIds.push(r.outboxId);
        if (r.opened) result.opened++;
      }
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
  result.events = events.length;
  await announceAlertChanges(rt, changes, outboxIds);
  await announceTimelineEvents(rt, events);
  return result;
}
