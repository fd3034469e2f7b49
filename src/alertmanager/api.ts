/**
 * The read and silence side of Alertmanager API v2 (`GET /alerts`, `GET/POST /silences`,
 * `GET/DELETE /silence/{id}`, `GET /status`), in Alertmanager's own wire shapes so amtool and other
 * Alertmanager clients work unchanged. Every call runs with the caller's PAT through the same
 * services as GraphQL (src/routing/silences.ts), in the caller's tenant.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { ValidationFailed } from '../errors.js';
import type { Alert, Silence } from '../generated/prisma/client.js';
import { labelsFingerprint } from '../integrations/providers/common.js';
import {
  fromApiMatcher,
  matcherProblem,
  matchersMatch,
  MatcherError,
  parseMatchers,
  toApiMatcher,
  type ApiMatcher,
  type Matcher,
} from '../routing/matchers.js';
import {
  alertLabelSet,
  createSilence,
  expireSilence,
  loadSilence,
  silenceState,
  updateSilence,
} from '../routing/silences.js';

/** Most alerts and silences one list answers (newest first). */
const LIST_MAX = 5000;

/** Parses `filter` query values (each a matcher, or a braced list) into matchers; 422 names the parameter. */
export function parseFilter(filter: unknown): Matcher[] {
  const values = filter === undefined ? [] : Array.isArray(filter) ? filter : [filter];
  try {
    return values.flatMap((v) => parseMatchers(String(v)));
  } catch (err) {
    if (err instanceof MatcherError) throw new ValidationFailed([{ loc: ['filter'], msg: err.message }]);
    throw err;
  }
}

const flag = (v: unknown, dflt: boolean) => (v === undefined ? dflt : String(v) !== 'false');

/** An alert in Alertmanager's `gettableAlert` shape. */
function gettableAlert(a: Alert & { rule?: { name: string } | null }) {
  const labels = alertLabelSet({ labels: a.labels });
  const fp = a.dedupKey.startsWith('alertmanager:')
    ? a.dedupKey.slice('alertmanager:'.length)
    : labelsFingerprint(labels);
  const annotations = { ...(a.annotations as Record<string, string>) };
  const generatorURL = annotations.generator_url ?? '';
  delete annotations.generator_url;
  return {
    labels,
    annotations,
    startsAt: a.firstSeenAt.toISOString(),
    endsAt: (a.resolvedAt ?? a.lastSeenAt).toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    fingerprint: fp,
    generatorURL,
    receivers: [{ name: 'default' }],
    status: {
      state: a.suppressed ? 'suppressed' : 'active',
      silencedBy: a.silenceId ? [a.silenceId] : [],
      inhibitedBy: a.inhibitedById ? [a.inhibitedById] : [],
    },
  };
}

/** `GET /api/v2/alerts`: the tenant's live alerts, filtered as Alertmanager filters them. */
export async function listAlertmanagerAlerts(ctx: Ctx, q: Record<string, unknown>) {
  requireUser(ctx);
  const filter = parseFilter(q.filter);
  const active = flag(q.active, true);
  const silenced = flag(q.silenced, true);
  const inhibited = flag(q.inhibited, true);
  const rows = await ctx.db.alert.findMany({
    where: { liveDedupKey: { not: null } },
    orderBy: { createdAt: 'desc' },
    take: LIST_MAX,
  });
  return (
    rows
      .map(gettableAlert)
      // Alertmanager's flags: an inhibited alert shows when `inhibited` is on; a muted one that is not
      // inhibited (a silence, a maintenance window) when `silenced` is on; the rest when `active` is on.
      .filter((a) => (a.status.state === 'active' ? active : a.status.inhibitedBy.length ? inhibited : silenced))
      .filter((a) => matchersMatch(filter, a.labels))
  );
}

/** A silence in Alertmanager's `gettableSilence` shape. */
export function gettableSilence(s: Silence, now: Date) {
  return {
    id: s.id,
    status: { state: silenceState(s, now) },
    updatedAt: s.updatedAt.toISOString(),
    matchers: (s.matchers as unknown as Matcher[]).map(toApiMatcher),
    startsAt: s.startsAt.toISOString(),
    endsAt: s.endsAt.toISOString(),
    createdBy: s.createdBy,
    comment: s.comment,
  };
}

/**
 * `GET /api/v2/silences`: every silence (newest first), those whose equality matchers satisfy the
 * filter when one is given (Alertmanager's rule: the filter matches the silence's label set).
 */
export async function listAlertmanagerSilences(ctx: Ctx, q: Record<string, unknown>) {
  requireUser(ctx);
  const filter = parseFilter(q.filter);
  const rows = await ctx.db.silence.findMany({ orderBy: { createdAt: 'desc' }, take: LIST_MAX });
  const now = ctx.rt.clock.now();
  return rows
    .filter((s) => {
      if (!filter.length) return true;
      const labels: Record<string, string> = {};
      for (const m of s.matchers as unknown as Matcher[]) if (m.type === '=') labels[m.name] = m.value;
      return matchersMatch(filter, labels);
    })
    .map((s) => gettableSilence(s, now));
}

/** `GET /api/v2/silence/{id}`. */
export async function getAlertmanagerSilence(ctx: Ctx, id: string) {
  requireUser(ctx);
  return gettableSilence(await loadSilence(ctx, id), ctx.rt.clock.now());
}

function checkPostable(body: unknown): {
  id?: string;
  matchers: ApiMatcher[];
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
} {
  const b = (body ?? {}) as Record<string, unknown>;
  const problems: Array<{ loc: string[]; msg: string }> = [];
  if (!Array.isArray(b.matchers) || b.matchers.length === 0) problems.push({ loc: ['matchers'], msg: 'required' });
  else
    b.matchers.forEach((m: Record<string, unknown>, i) => {
      const p =
        typeof m?.isRegex !== 'boolean'
          ? 'isRegex must be a boolean'
          : matcherProblem(fromApiMatcher(m as unknown as ApiMatcher));
      if (p) problems.push({ loc: ['matchers', String(i)], msg: p });
    });
  for (const f of ['startsAt', 'endsAt'] as const)
    if (typeof b[f] !== 'string' || Number.isNaN(Date.parse(b[f])))
      problems.push({ loc: [f], msg: 'must be a date-time' });
  if (typeof b.createdBy !== 'string') problems.push({ loc: ['createdBy'], msg: 'required' });
  if (typeof b.comment !== 'string') problems.push({ loc: ['comment'], msg: 'required' });
  if (problems.length) throw new ValidationFailed(problems);
  return b as never;
}

/**
 * `POST /api/v2/silences`: creates a silence, or with `id` changes that one (an expired one is
 * replaced by a new silence, as Alertmanager does). Answers `{silenceID}`.
 */
export async function postAlertmanagerSilence(ctx: Ctx, body: unknown): Promise<{ silenceID: string }> {
  const user = requireUser(ctx);
  const p = checkPostable(body);
  const input = {
    matchers: p.matchers.map(fromApiMatcher),
    startsAt: new Date(p.startsAt),
    endsAt: new Date(p.endsAt),
    createdBy: p.createdBy.trim() || user.email || undefined,
    // Alertmanager accepts an empty comment; ours says why, so an empty one gets a note.
    comment: p.comment.trim() || 'Created through the Alertmanager API without a comment.',
  };
  if (p.id) {
    const current = await loadSilence(ctx, p.id);
    if (silenceState(current, ctx.rt.clock.now()) !== 'expired')
      return { silenceID: (await updateSilence(ctx, p.id, input)).id };
  }
  return { silenceID: (await createSilence(ctx, input)).id };
}

/** `DELETE /api/v2/silence/{id}`: expires it. */
export async function deleteAlertmanagerSilence(ctx: Ctx, id: string): Promise<void> {
  await expireSilence(ctx, id);
}

/** `GET /api/v2/status`: what amtool asks before it trusts the server. */
export function alertmanagerStatus(ctx: Ctx, startedAt: Date) {
  requireUser(ctx);
  return {
    cluster: { status: 'disabled', peers: [] as unknown[] },
    versionInfo: {
      branch: 'ops-service',
      buildDate: '',
      buildUser: '',
      goVersion: '',
      revision: '',
      version: '0.25.0',
    },
    config: { original: '' },
    uptime: startedAt.toISOString(),
  };
}
