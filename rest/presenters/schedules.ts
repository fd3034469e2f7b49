/**
 * The REST shapes of schedules, their overrides and shifts, and of who is on call (one presenter per resource).
 * Each returns its OpenAPI schema's type (src/openapi-types.ts), so the compiler holds presenter and contract equal.
 */
import type { components } from '../../src/openapi-types.js';

type Schemas = components['schemas'];
export type ScheduleWire = Schemas['Schedule'];
export type ScheduleShiftWire = Schemas['ScheduleShift'];
export type ScheduleOverrideWire = Schemas['ScheduleOverride'];
type Layer = ScheduleWire['layers'][number];
type Node = Record<string, any>;

const SHIFT_FIELDS = 'userId start end layerId overrideId';
export const SCHEDULE_SHIFT_FIELDS = SHIFT_FIELDS;
export const SCHEDULE_OVERRIDE_FIELDS = 'id scheduleId userId startsAt endsAt createdAt';
/** The schedule selection without `onCall` (mutations, which take no `$at`). */
export const SCHEDULE_BASE_FIELDS = `id name description timeZone createdAt updatedAt
  layers { id position name startsAt rotation turnLengthSeconds handoffTime handoffWeekday userIds restrictions }
  overrides { id userId startsAt endsAt }`;
export const SCHEDULE_FIELDS = `${SCHEDULE_BASE_FIELDS}
  onCall(at: $at) { ${SHIFT_FIELDS} }`;
/** After a change: who is on call now. */
export const SCHEDULE_FIELDS_NOW = `${SCHEDULE_BASE_FIELDS}
  onCall { ${SHIFT_FIELDS} }`;
export const ONCALL_FIELDS = `schedule { id name timeZone } shift { ${SHIFT_FIELDS} }`;

/** A shift: who, from, to (end exclusive), and where it comes from. */
export function presentShift(s: Node): ScheduleShiftWire {
  return { user_id: s.userId, start: s.start, end: s.end, layer_id: s.layerId, override_id: s.overrideId };
}

function presentLayer(l: Node): Layer {
  return {
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
  };
}

/** A schedule with its layers, overrides and who is on call now (or at `?at=`). */
export function presentSchedule(s: Node): ScheduleWire {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    time_zone: s.timeZone,
    layers: s.layers.map(presentLayer),
    overrides: s.overrides.map((o: Node) => ({
      id: o.id,
      user_id: o.userId,
      starts_at: o.startsAt,
      ends_at: o.endsAt,
    })),
    on_call: s.onCall ? presentShift(s.onCall) : null,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

/** An override: someone on call over every layer from `starts_at` to `ends_at`. */
export function presentScheduleOverride(o: Node): ScheduleOverrideWire {
  return {
    id: o.id,
    schedule_id: o.scheduleId,
    user_id: o.userId,
    starts_at: o.startsAt,
    ends_at: o.endsAt,
    created_at: o.createdAt,
  };
}

/** Who is on call in one schedule at one instant (`shift` null: nobody). */
export function presentScheduleOnCall(scheduleId: string, at: string, shift: Node | null): Schemas['ScheduleOnCall'] {
  return { schedule_id: scheduleId, at, shift: shift ? presentShift(shift) : null };
}

/** Who is on call in one schedule (the list of GET /oncall). */
export function presentOnCall(r: Node) {
  return {
    schedule: { id: r.schedule.id, name: r.schedule.name, time_zone: r.schedule.timeZone },
    shift: presentShift(r.shift),
  };
}
