/**
 * REST routes of on-call schedules: who is on call (`/oncall`), schedules (CRUD; layers travel in the schedule's
 * body), their overrides, who is on call in one schedule and its final shifts, and the public iCalendar feed a
 * secret URL serves (`/calendar-feeds/<token>.ics`: the token is the credential; unknown or revoked is 404).
 */
import type { RouteEntry } from '../route-types.js';
import { NotFound } from '../../src/errors.js';
import { calendarFeedDocument } from '../../src/schedules/feeds.js';
import {
  ONCALL_FIELDS,
  SCHEDULE_FIELDS,
  SCHEDULE_FIELDS_NOW,
  SCHEDULE_OVERRIDE_FIELDS,
  SCHEDULE_SHIFT_FIELDS,
  presentOnCall,
  presentSchedule,
  presentScheduleOnCall,
  presentScheduleOverride,
  presentShift,
} from '../presenters/schedules.js';
import { arrayOf } from '../presenters/lists.js';

/** Default window of GET /schedules/{id}/shifts: 14 days from `from`. */
const DEFAULT_SHIFT_WINDOW_MS = 14 * 86400_000;

export const schedulesRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/oncall',
    operation: `query OnCall($at: DateTime) { onCall(at: $at) { ${ONCALL_FIELDS} } }`,
    variables: (req) => ({ at: req.query.at ?? null }),
    respond: (data) => ({ items: arrayOf(data.onCall, presentOnCall) }),
  },
  {
    method: 'get',
    path: '/schedules',
    operation: `query Schedules($at: DateTime) { schedules { ${SCHEDULE_FIELDS} } }`,
    variables: (req) => ({ at: req.query.at ?? null }),
    respond: (data) => ({ items: arrayOf(data.schedules, presentSchedule) }),
  },
  {
    method: 'post',
    path: '/schedules',
    operation: `mutation CreateSchedule($input: CreateScheduleInput!) { createSchedule(input: $input) { ${SCHEDULE_FIELDS_NOW} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentSchedule(data.createSchedule),
  },
  {
    method: 'get',
    path: '/schedules/:scheduleId',
    operation: `query Schedule($id: ID!, $at: DateTime) { schedule(id: $id) { ${SCHEDULE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.scheduleId, at: req.query.at ?? null }),
    respond: (data) => presentSchedule(data.schedule),
  },
  {
    method: 'patch',
    path: '/schedules/:scheduleId',
    operation: `mutation UpdateSchedule($id: ID!, $input: UpdateScheduleInput!) { updateSchedule(id: $id, input: $input) { ${SCHEDULE_FIELDS_NOW} } }`,
    variables: (req) => ({ id: req.params.scheduleId, input: req.body }),
    respond: (data) => presentSchedule(data.updateSchedule),
  },
  {
    method: 'delete',
    path: '/schedules/:scheduleId',
    operation: 'mutation DeleteSchedule($id: ID!) { deleteSchedule(id: $id) }',
    variables: (req) => ({ id: req.params.scheduleId }),
    status: 204,
  },
  {
    method: 'get',
    path: '/schedules/:scheduleId/oncall',
    operation: `query ScheduleOnCall($id: ID!, $at: DateTime) { schedule(id: $id) { id onCall(at: $at) { ${SCHEDULE_SHIFT_FIELDS} } } }`,
    variables: (req) => ({ id: req.params.scheduleId, at: req.query.at ?? null }),
    respond: (data, req) =>
      presentScheduleOnCall(data.schedule.id, String(req.query.at ?? req.now.toISOString()), data.schedule.onCall),
  },
  {
    method: 'get',
    path: '/schedules/:scheduleId/shifts',
    operation: `query ScheduleShifts($id: ID!, $from: DateTime!, $to: DateTime!) { schedule(id: $id) { finalShifts(from: $from, to: $to) { ${SCHEDULE_SHIFT_FIELDS} } } }`,
    variables: (req) => {
      const from = req.query.from ? String(req.query.from) : req.now.toISOString();
      const to = req.query.to ?? new Date(new Date(from).getTime() + DEFAULT_SHIFT_WINDOW_MS).toISOString();
      return { id: req.params.scheduleId, from, to };
    },
    respond: (data) => ({ items: data.schedule.finalShifts.map(presentShift) }),
  },
  {
    method: 'get',
    path: '/schedules/:scheduleId/overrides',
    operation: `query ScheduleOverrides($id: ID!) { schedule(id: $id) { overrides { ${SCHEDULE_OVERRIDE_FIELDS} } } }`,
    variables: (req) => ({ id: req.params.scheduleId }),
    respond: (data) => ({ items: data.schedule.overrides.map(presentScheduleOverride) }),
  },
  {
    method: 'post',
    path: '/schedules/:scheduleId/overrides',
    operation: `mutation CreateScheduleOverride($input: CreateScheduleOverrideInput!) { createScheduleOverride(input: $input) { ${SCHEDULE_OVERRIDE_FIELDS} } }`,
    variables: (req) => ({ input: { ...req.body, scheduleId: req.params.scheduleId } }),
    status: 201,
    respond: (data) => presentScheduleOverride(data.createScheduleOverride),
  },
  {
    method: 'delete',
    path: '/schedules/:scheduleId/overrides/:overrideId',
    operation:
      'mutation DeleteScheduleOverride($scheduleId: ID!, $id: ID!) { deleteScheduleOverride(scheduleId: $scheduleId, id: $id) }',
    variables: (req) => ({ scheduleId: req.params.scheduleId, id: req.params.overrideId }),
    status: 204,
  },
  {
    method: 'get',
    path: '/calendar-feeds/:file',
    auth: 'public',
    handler: async (req, res) => {
      const file = String(req.params.file ?? '');
      const doc = file.endsWith('.ics') ? await calendarFeedDocument(req.ctx.rt, file.slice(0, -4)) : null;
      if (doc === null) throw new NotFound('Calendar feed');
      res.status(200).type('text/calendar; charset=utf-8').set('Cache-Control', 'private, max-age=300').send(doc);
    },
  },
];
