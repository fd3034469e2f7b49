/**
 * REST routes of on-call schedules: who is on call (`/oncall`), schedules, and the public iCalendar feed a secret
 * URL serves (`/calendar-feeds/<token>.ics`: the token is the credential; unknown or revoked is 404).
 */
import type { RouteEntry } from '../route-types.js';
import { NotFound } from '../../src/errors.js';
import { calendarFeedDocument } from '../../src/schedules/feeds.js';
import { ONCALL_FIELDS, SCHEDULE_FIELDS, presentOnCall, presentSchedule } from '../presenters/schedules.js';
import { arrayOf } from '../presenters/lists.js';

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
    method: 'get',
    path: '/schedules/:scheduleId',
    operation: `query Schedule($id: ID!, $at: DateTime) { schedule(id: $id) { ${SCHEDULE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.scheduleId, at: req.query.at ?? null }),
    respond: (data) => presentSchedule(data.schedule),
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
