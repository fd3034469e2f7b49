/**
 * REST shapes of silences and time intervals (snake_case; matcher types as Alertmanager writes them:
 * `=`, `!=`, `=~`, `!~`). Used by rest/routes/routing.ts.
 */
type Node = Record<string, any>;

/** GraphQL selection that presentSilence reads. */
export const SILENCE_FIELDS =
  'id matchers { name type value } startsAt endsAt createdBy comment state timeInterval { id } createdAt updatedAt';

export function presentSilence(s: Node): Record<string, unknown> {
  return {
    id: s.id,
    matchers: s.matchers,
    starts_at: s.startsAt,
    ends_at: s.endsAt,
    created_by: s.createdBy,
    comment: s.comment,
    state: s.state,
    time_interval_id: s.timeInterval?.id ?? null,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

/** GraphQL selection that presentTimeInterval reads. */
export const TIME_INTERVAL_FIELDS = 'id name intervals activeNow createdAt updatedAt';

export function presentTimeInterval(t: Node): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    intervals: t.intervals,
    active_now: t.activeNow,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}
