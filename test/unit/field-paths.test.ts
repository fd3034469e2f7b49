/**
 * REST 422 locations: a service's field location (GraphQL input terms) is rewritten to the field of
 * the REST request it came from, using the real route table's `variables` mappings.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { routes } from '../../rest/routes/index.js';
import { handlerLocTranslator, restLocTranslator as translatorOf } from '../../rest/field-paths.js';
import { schema } from '../../schema/index.js';
import type { HandlerRoute, OperationRoute, RestRequest } from '../../rest/route-types.js';

function route(method: string, path: string): OperationRoute {
  const r = routes.find((x) => x.method === method && x.path === path);
  if (!r || !('operation' in r)) throw new Error(`no operation route ${method} ${path}`);
  return r;
}

function handler(method: string, path: string): HandlerRoute {
  const r = routes.find((x) => x.method === method && x.path === path);
  if (!r || 'operation' in r) throw new Error(`no handler route ${method} ${path}`);
  return r;
}

const restLocTranslator = (r: OperationRoute, request: RestRequest, _method: string) =>
  translatorOf(schema, parse(r.operation), r, request);

const req = (over: Partial<RestRequest>): RestRequest => ({
  params: {},
  query: {},
  body: {},
  headers: {},
  now: new Date(0),
  ...over,
});

describe('restLocTranslator', () => {
  it('maps a camelCase input field to the snake_case body field it was read from', () => {
    const t = restLocTranslator(
      route('post', '/sot/proposals'),
      req({ body: { title: 't', kind: 'k', device_id: 'x', proposed_intent: 'i' } }),
      'post',
    );
    expect(t(['input', 'deviceId'])).toEqual(['body', 'device_id']);
    expect(t(['input', 'proposedIntent'])).toEqual(['body', 'proposed_intent']);
  });

  it('maps an input field filled from the path to the path parameter', () => {
    const t = restLocTranslator(
      route('put', '/sot/devices/:deviceId/config'),
      req({ params: { deviceId: 'd1' }, body: { config: 'c', observed_at: '2020-01-01T00:00:00Z' } }),
      'put',
    );
    expect(t(['input', 'deviceId'])).toEqual(['path', 'deviceId']);
    expect(t(['input', 'observedAt'])).toEqual(['body', 'observed_at']);
  });

  it('maps a bare argument name to its query parameter, even when the parameter was absent', () => {
    const t = restLocTranslator(route('get', '/proposals'), req({ query: { older_than: 'soon' } }), 'get');
    expect(t(['olderThan'])).toEqual(['query', 'older_than']);
    expect(t(['deviceId'])).toEqual(['query', 'device_id']);
  });

  it('keeps locations a service already wrote in REST terms, and the nested part of a field', () => {
    const snooze = restLocTranslator(
      route('post', '/alerts/:alertId/snooze'),
      req({ params: { alertId: 'a' }, body: { duration: '5m' } }),
      'post',
    );
    expect(snooze(['body', 'duration'])).toEqual(['body', 'duration']);
    expect(snooze(['body'])).toEqual(['body']);
    const device = restLocTranslator(
      route('patch', '/sot/devices/:deviceId'),
      req({ params: { deviceId: 'd' }, body: { labels: { a: 'b' } } }),
      'patch',
    );
    expect(device(['input', 'labels', 'someKey'])).toEqual(['body', 'labels', 'someKey']); // user data: as sent
    expect(device(['input', 'managementAddress'])).toEqual(['body', 'management_address']);
  });

  it('maps an argument passed in a differently named variable, and a whole body passed on as an input', () => {
    const invite = restLocTranslator(route('post', '/clusters/invite'), req({ body: { expires_in_hours: 0 } }), 'post');
    expect(invite(['expiresInHours'])).toEqual(['body', 'expires_in_hours']);
    expect(invite(['hubUrl'])).toEqual(['body', 'hub_url']);
    const query = restLocTranslator(
      route('post', '/reports/query'),
      req({ body: { entity: 'alerts', filters: [{ field: 'severity', op: 'eq' }] } }),
      'post',
    );
    expect(query(['query', 'filters', '0', 'op'])).toEqual(['body', 'filters', '0', 'op']);
  });

  it('maps an argument a body key named without an input (`...req.body`: conversation_id → $conversationId)', () => {
    const chat = restLocTranslator(
      route('post', '/copilot/chat'),
      req({ body: { message: 'hi', conversation_id: 'c1' } }),
      'post',
    );
    expect(chat(['conversationId'])).toEqual(['body', 'conversation_id']);
    const approve = restLocTranslator(
      route('post', '/alerts/:alertId/actions/:actionId/approve'),
      req({ params: { alertId: 'a', actionId: 'x' }, body: { args_hash: 'h' } }),
      'post',
    );
    expect(approve(['argsHash'])).toEqual(['body', 'args_hash']);
    expect(approve(['actionId'])).toEqual(['path', 'actionId']);
  });

  it("maps a handler route's service fields through its variables, or into the body without them", () => {
    const focus = handlerLocTranslator(
      handler('get', '/billing/export'),
      req({ query: { format: 'xml', from: '2026-02-01', to: '2026-01-01' } }),
    );
    expect(focus(['format'])).toEqual(['query', 'format']);
    expect(focus(['to'])).toEqual(['query', 'to']);
    expect(focus(['period'])).toEqual(['query', 'period']);
    const report = handlerLocTranslator(
      handler('post', '/reports/query/export'),
      req({
        query: { format: 'csv' },
        body: { entity: 'events', filters: [{ field: 'source', op: 'gt' }], groupBy: 1 },
      }),
    );
    expect(report(['query', 'filters', '0', 'op'])).toEqual(['body', 'filters', '0', 'op']);
    expect(report(['query', 'groupBy'])).toEqual(['body', 'groupBy']); // a document's keys as sent
    expect(report(['query'])).toEqual(['body']);
    const ingest = handlerLocTranslator(handler('post', '/events'), req({ body: { type: 'a', body: 1 } }));
    expect(ingest(['type'])).toEqual(['body', 'type']);
    expect(ingest(['body'])).toEqual(['body', 'body']);
    expect(ingest([])).toEqual(['body']);
  });
});
