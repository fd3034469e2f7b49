/**
 * REST routes of the devices area (source of truth). Each executes a GraphQL operation of
 * schema/devices.ts, except the signed source-of-truth webhook, which needs the raw body for its
 * signature (a HandlerRoute calling src/devices/sot-webhook.ts).
 *
 * Lists answer `{"items": [...]}` (DESIGN: one shape for lists of domain objects).
 */
import type { RouteEntry } from '../route-types.js';
import { applySotWebhook } from '../../src/devices/sot-webhook.js';
import { webhookSignatureAuth } from '../../src/events/inbound-webhooks.js';
import {
  DEVICE_DETAIL_FIELDS,
  DEVICE_FIELDS,
  INTENT_FIELDS,
  OBSERVED_CONFIG_FIELDS,
  presentDevice,
  presentDeviceDetail,
  presentIntent,
  presentObservedConfig,
  presentReconcileRequest,
  presentReviewSettings,
  presentSotWebhookResult,
} from '../presenters/devices.js';
import { itemsOf } from '../presenters/lists.js';

export const devicesRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/sot/devices',
    operation: `query Devices($first: Int!, $filter: DeviceFilter) { devices(first: $first, filter: $filter) { edges { node { ${DEVICE_FIELDS} } } } }`,
    variables: (req) => ({
      first: Number(req.query.limit ?? 100),
      filter: {
        site: req.query.site ?? null,
        role: req.query.role ?? null,
        platform: req.query.platform ?? null,
        search: req.query.search ?? null,
      },
    }),
    respond: (data) => itemsOf(data.devices, presentDevice),
  },
  {
    method: 'post',
    path: '/sot/devices',
    operation: `mutation CreateDevice($input: DeviceInput!) { createDevice(input: $input) { ${DEVICE_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentDevice(data.createDevice),
  },
  {
    method: 'patch',
    path: '/sot/devices/:deviceId',
    operation: `mutation UpdateDevice($id: ID!, $input: UpdateDeviceInput!) { updateDevice(id: $id, input: $input) { ${DEVICE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.deviceId, input: req.body }),
    respond: (data) => presentDevice(data.updateDevice),
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
    operation: `mutation ReportObservedConfig($input: ReportObservedConfigInput!) { reportObservedConfig(input: $input) { ${OBSERVED_CONFIG_FIELDS} } }`,
    variables: (req) => ({ input: { ...req.body, deviceId: req.params.deviceId } }),
    respond: (data) => presentObservedConfig(data.reportObservedConfig),
  },
  {
    method: 'get',
    path: '/sot/devices/:deviceId',
    operation: `query Device($id: ID!) { device(id: $id) { ${DEVICE_DETAIL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.deviceId }),
    respond: (data) => presentDeviceDetail(data.device),
  },
  {
    method: 'get',
    path: '/sot/devices/:deviceId/config',
    operation: `query DeviceConfig($id: ID!) { device(id: $id) { ${OBSERVED_CONFIG_FIELDS} } }`,
    variables: (req) => ({ id: req.params.deviceId }),
    respond: (data) => presentObservedConfig(data.device),
  },
  {
    method: 'get',
    path: '/sot/devices/:deviceId/intent',
    operation: `query DeviceIntent($id: ID!) { device(id: $id) { id intent { ${INTENT_FIELDS} } } }`,
    variables: (req) => ({ id: req.params.deviceId }),
    respond: (data) => presentIntent(data.device.id, data.device.intent),
  },
  {
    method: 'put',
    path: '/sot/devices/:deviceId/intent',
    operation: `mutation SetDeviceIntent($input: SetDeviceIntentInput!) { setDeviceIntent(input: $input) { ${INTENT_FIELDS} device { id } } }`,
    variables: (req) => ({ input: { ...req.body, deviceId: req.params.deviceId } }),
    respond: (data) => presentIntent(data.setDeviceIntent.device.id, data.setDeviceIntent),
  },
  {
    method: 'get',
    path: '/sot/review-settings',
    operation: 'query ReviewSettings { reviewSettings { requireProposals } }',
    respond: (data) => presentReviewSettings(data.reviewSettings),
  },
  {
    method: 'put',
    path: '/sot/review-settings',
    operation:
      'mutation SetReviewSettings($input: SetReviewSettingsInput!) { setReviewSettings(input: $input) { requireProposals } }',
    variables: (req) => ({ input: req.body }),
    respond: (data) => presentReviewSettings(data.setReviewSettings),
  },
  {
    method: 'post',
    path: '/sot/devices/:deviceId/reconcile',
    operation: 'mutation ReconcileDevice($id: ID!) { reconcileDevice(id: $id) { deviceId jobId queuedAt } }',
    variables: (req) => ({ id: req.params.deviceId }),
    status: 202,
    respond: (data) => presentReconcileRequest(data.reconcileDevice),
  },
  {
    method: 'post',
    path: '/sot/webhooks/:slug',
    auth: webhookSignatureAuth('sot'),
    handler: async (req, res) => {
      const r = await applySotWebhook(req.ctx, String(req.params.slug), req.body);
      res.status(r.result === 'created' ? 201 : 200).json(presentSotWebhookResult(r));
    },
  },
];
