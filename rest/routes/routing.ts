/**
 * REST routes of silences and named time intervals (schema/routing.ts): members read, create and
 * expire silences; admins manage time intervals. Lists answer `{"items": [...]}`.
 */
import type { RouteEntry } from '../route-types.js';
import { presentSilence, presentTimeInterval, SILENCE_FIELDS, TIME_INTERVAL_FIELDS } from '../presenters/routing.js';

export const routingRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/silences',
    operation: `query Silences($state: SilenceState, $limit: Int) { silences(state: $state, limit: $limit) { ${SILENCE_FIELDS} } }`,
    variables: (req) => ({
      state: req.query.state ?? null,
      limit: req.query.limit === undefined ? null : Number(req.query.limit),
    }),
    respond: (data) => ({ items: data.silences.map(presentSilence) }),
  },
  {
    method: 'post',
    path: '/silences',
    operation: `mutation CreateSilence($input: CreateSilenceInput!) { createSilence(input: $input) { ${SILENCE_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentSilence(data.createSilence),
  },
  {
    method: 'get',
    path: '/silences/:silenceId',
    operation: `query Silence($id: ID!) { silence(id: $id) { ${SILENCE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.silenceId }),
    respond: (data) => presentSilence(data.silence),
  },
  {
    method: 'patch',
    path: '/silences/:silenceId',
    operation: `mutation UpdateSilence($id: ID!, $input: UpdateSilenceInput!) { updateSilence(id: $id, input: $input) { ${SILENCE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.silenceId, input: req.body }),
    respond: (data) => presentSilence(data.updateSilence),
  },
  {
    method: 'post',
    path: '/silences/:silenceId/expire',
    operation: `mutation ExpireSilence($id: ID!) { expireSilence(id: $id) { ${SILENCE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.silenceId }),
    respond: (data) => presentSilence(data.expireSilence),
  },
  {
    method: 'get',
    path: '/time-intervals',
    operation: `query TimeIntervals { timeIntervals { ${TIME_INTERVAL_FIELDS} } }`,
    variables: () => ({}),
    respond: (data) => ({ items: data.timeIntervals.map(presentTimeInterval) }),
  },
  {
    method: 'post',
    path: '/time-intervals',
    operation: `mutation CreateTimeInterval($input: CreateTimeIntervalInput!) { createTimeInterval(input: $input) { ${TIME_INTERVAL_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentTimeInterval(data.createTimeInterval),
  },
  {
    method: 'get',
    path: '/time-intervals/:timeIntervalId',
    operation: `query TimeInterval($id: ID!) { timeInterval(id: $id) { ${TIME_INTERVAL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.timeIntervalId }),
    respond: (data) => presentTimeInterval(data.timeInterval),
  },
  {
    method: 'patch',
    path: '/time-intervals/:timeIntervalId',
    operation: `mutation UpdateTimeInterval($id: ID!, $input: UpdateTimeIntervalInput!) { updateTimeInterval(id: $id, input: $input) { ${TIME_INTERVAL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.timeIntervalId, input: req.body }),
    respond: (data) => presentTimeInterval(data.updateTimeInterval),
  },
  {
    method: 'delete',
    path: '/time-intervals/:timeIntervalId',
    operation: 'mutation DeleteTimeInterval($id: ID!) { deleteTimeInterval(id: $id) }',
    variables: (req) => ({ id: req.params.timeIntervalId }),
    status: 204,
  },
];
