/**
 * The REST shapes of schedules and of who is on call (one presenter per resource).
 */
const SHIFT_FIELDS = 'userId start end layerId overrideId';
export const SCHEDULE_FIELDS = `id name description timeZone createdAt updatedAt
  layers { id position name startsAt rotation turnLengthSeconds handoffTime handoffWeekday userIds restrictions }
  overrides { id userId startsAt endsAt }
  onCall(at: $at) { ${SHIFT_FIELDS} }`;
export const ONCALL_FIELDS = `schedule { id name timeZone } shift { ${SHIFT_FIELDS} }`;

interface ShiftNode {
  userId: string;
  start: string;
  end: string;
  layerId: string | null;
  overrideId: string | null;
}

/** A shift: who, from, to (end exclusive), and where it comes from. */
export function presentShift(s: ShiftNode) {
  return { user_id: s.userId, start: s.start, end: s.end, layer_id: s.layerId, override_id: s.overrideId };
}

/** A schedule with its layers, overrides and who is on call now (or at `?at=`). */
export function presentSchedule(s: any) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    time_zone: s.timeZone,
    layers: s.layers.map((l: any) => ({
      id: l.id,
      position: l.position,
      name: l.name,
      starts_at: l.startsAt,
      rotation: l.rotation,
      turn_length_seconds: l.turnLengthSeconds,
      handoff_time: l.handoffTime,
      handoff_weekday: l.handoffWeekday,
      user_ids: l.userIds,
      restrictions: l.restrictions,
    })),
    overrides: s.overrides.map((o: any) => ({ id: o.id, user_id: o.userId, starts_at: o.startsAt, ends_at: o.endsAt })),
    on_call: s.onCall ? presentShift(s.onCall) : null,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

/** Who is on call in one schedule. */
export function presentOnCall(r: any) {
  return {
    schedule: { id: r.schedule.id, name: r.schedule.name, time_zone: r.schedule.timeZone },
    shift: presentShift(r.shift),
  };
}
