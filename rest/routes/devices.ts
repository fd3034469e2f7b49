/**
 * REST routes of the devices area (source of truth). Each executes a GraphQL operation of
 * schema/devices.ts, except the signed source-of-truth webhook, which needs the raw body for its
 * signature (a HandlerRoute calling src/devices/sot-webhook.ts).
 *
 * Lists answer `{"items": [...]}` (DESIGN: one shape for lists of domain objects).
 */
import type { RouteEntry } from '../route-types.js';
import { snake, snakeTop } from '../shape.js';
import { NotFound } from '../../src/errors.js';
import { applySotWebhook } from '../../src/devices/sot-webhook.js';
import { webhookSignatureAuth } from '../../src/events/inbound-webhooks.js';

const DEVICE_FIELDS = 'id name role site platform managementAddress labels externalId createdAt updatedAt';
const INTENT_FIELDS = 'id version config comment createdAt author { id email } proposal { id }';

type Node = Record<string, any>;

/** REST shape of a device: snake_case, labels as given. */
export function restDevice(d: Node): Record<string, unknown> {
  return snakeTop(d, ['labels']);
}

function restDeviceDetail(d: Node): Record<string, unknown> {
  const { intent, drift, ...device } = d;
  return {
    ...restDevice(device),
    intent_version: intent?.version ?? null,
    drift_status: drift?.status ?? null,
    drift_checked_at: drift?.createdAt ?? null,
  };
}

function restIntent(deviceId: string, v: Node | null): Record<string, unknown> {
  return {
    device_id: deviceId,
    version: v?.version ?? null,
    config: v?.config ?? null,
    comment: v?.comment ?? null,
    author: v?.author ? { id: v.author.id, email: v.author.email } : null,
    proposal_id: v?.proposal?.id ?? null,
    created_at: v?.createdAt ?? null,
  };
}

/** GraphQL DeviceInput from a REST body: only the fields present (null clears one). */
function deviceInput(b: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [rest, gql] of [['name', 'name'], ['role', 'role'], ['site', 'site'], ['platform', 'platform'], ['management_address', 'managementAddress'], ['labels', 'labels']] as const) {
    if (b[rest] !== undefined) input[gql] = b[rest];
  }
  return input;
}

function found<T>(v: T | null | undefined): T {
  if (v == null) throw new NotFound('Device');
  return v;
}

export const devicesRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/sot/devices',
    operation: `query Devices($first: Int!, $filter: DeviceFilter) { devices(first: $first, filter: $filter) { edges { node { ${DEVICE_FIELDS} } } } }`,
    variables: (req) => ({
      first: Number(req.query.limit ?? 100),
      filter: { site: req.query.site ?? null, role: req.query.role ?? null, platform: req.query.platform ?? null, search: req.query.search ?? null },
    }),
    respond: (data) => ({ items: data.devices.edges.map((e: { node: Node }) => restDevice(e.node)) }),
  },
  {
    method: 'post',
    path: '/sot/devices',
    operation: `mutation CreateDevice($input: DeviceInput!) { createDevice(input: $input) { ${DEVICE_FIELDS} } }`,
    variables: (req) => ({ input: deviceInput(req.body) }),
    status: 201,
    respond: (data) => restDevice(data.createDevice),
  },
  {
    method: 'patch',
    path: '/sot/devices/:deviceId',
    operation: `mutation UpdateDevice($id: ID!, $input: DeviceInput!) { updateDevice(id: $id, input: $input) { ${DEVICE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.deviceId, input: deviceInput(req.body) }),
    respond: (data) => restDevice(data.updateDevice),
  },
  {
    method: 'delete',
    path: '/sot/devices/:deviceId',
    operation: 'mutation DeleteDevice($id: ID!) { deleteDevice(id: $id) }',
    variables: (req) => ({ id: req.params.deviceId }),
    status: 204,
  },
  {
    method: 'put',
    path: '/sot/devices/:deviceId/config',
    operation: 'mutation ReportObservedConfig($input: ReportObservedConfigInput!) { reportObservedConfig(input: $input) { id observedConfig { config observedAt } } }',
    variables: (req) => ({ input: { deviceId: req.params.deviceId, config: req.body.config, observedAt: req.body.observed_at ?? null } }),
    respond: (data) => {
      const d = data.reportObservedConfig;
      return { device_id: d.id, config: d.observedConfig?.config ?? null, observed_at: d.observedConfig?.observedAt ?? null };
    },
  },
  {
    method: 'get',
    path: '/sot/devices/:deviceId',
    operation: `query Device($id: ID!) { device(id: $id) { ${DEVICE_FIELDS} intent { version } drift { status createdAt } } }`,
    variables: (req) => ({ id: req.params.deviceId }),
    respond: (data) => restDeviceDetail(found(data.device)),
  },
  {
    method: 'get',
    path: '/sot/devices/:deviceId/config',
    operation: 'query DeviceConfig($id: ID!) { device(id: $id) { id observedConfig { config observedAt } } }',
    variables: (req) => ({ id: req.params.deviceId }),
    respond: (data) => {
      const d = found(data.device);
      return { device_id: d.id, config: d.observedConfig?.config ?? null, observed_at: d.observedConfig?.observedAt ?? null };
    },
  },
  {
    method: 'get',
    path: '/sot/devices/:deviceId/intent',
    operation: `query DeviceIntent($id: ID!) { device(id: $id) { id intent { ${INTENT_FIELDS} } } }`,
    variables: (req) => ({ id: req.params.deviceId }),
    respond: (data) => {
      const d = found(data.device);
      return restIntent(d.id, d.intent);
    },
  },
  {
    method: 'put',
    path: '/sot/devices/:deviceId/intent',
    operation: `mutation SetDeviceIntent($input: SetDeviceIntentInput!) { setDeviceIntent(input: $input) { ${INTENT_FIELDS} device { id } } }`,
    variables: (req) => ({ input: { deviceId: req.params.deviceId, config: req.body.config, comment: req.body.comment ?? null } }),
    respond: (data) => restIntent(data.setDeviceIntent.device.id, data.setDeviceIntent),
  },
  {
    method: 'post',
    path: '/sot/devices/:deviceId/reconcile',
    operation: 'mutation ReconcileDevice($id: ID!) { reconcileDevice(id: $id) { deviceId jobId queuedAt } }',
    variables: (req) => ({ id: req.params.deviceId }),
    status: 202,
    respond: (data) => ({ ...snake<Node>(data.reconcileDevice), status: 'queued' }),
  },
  {
    method: 'post',
    path: '/sot/webhooks/:slug',
    auth: webhookSignatureAuth('sot'),
    handler: async (req, res) => {
      const r = await applySotWebhook(req.ctx, String(req.params.slug), req.body);
      res.status(r.result === 'created' ? 201 : 200).json({ result: r.result, device_id: r.deviceId, event_id: r.eventId, ...(r.detail ? { detail: r.detail } : {}) });
    },
  },
];
