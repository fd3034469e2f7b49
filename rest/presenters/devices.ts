/**
 * The REST shapes of the devices area: a device, its detail (with intent version and drift), its
 * intended and observed configuration, and a queued reconcile.
 */
import { snake, snakeTop } from '../shape.js';

type Node = Record<string, any>;

export const DEVICE_FIELDS =
  'id name role site platform managementAddress labels aliases externalId createdAt updatedAt';
export const DEVICE_DETAIL_FIELDS = `${DEVICE_FIELDS} intent { version } drift { status createdAt }`;
export const INTENT_FIELDS = 'id version config comment createdAt author { id email } proposal { id }';
export const OBSERVED_CONFIG_FIELDS = 'id observedConfig { config observedAt }';

/** A device: snake_case, labels as given. */
export function presentDevice(d: Node): Record<string, unknown> {
  return snakeTop(d, ['labels']);
}

/** GET /sot/devices/:id: the device with its intent version and drift state. */
export function presentDeviceDetail(d: Node): Record<string, unknown> {
  const { intent, drift, ...device } = d;
  return {
    ...presentDevice(device),
    intent_version: intent?.version ?? null,
    drift_status: drift?.status ?? null,
    drift_checked_at: drift?.createdAt ?? null,
  };
}

/** The intended configuration of a device (all null before the first version). */
export function presentIntent(deviceId: string, v: Node | null): Record<string, unknown> {
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

/** The configuration last observed on a device (a Device node with OBSERVED_CONFIG_FIELDS). */
export function presentObservedConfig(d: Node): Record<string, unknown> {
  return {
    device_id: d.id,
    config: d.observedConfig?.config ?? null,
    observed_at: d.observedConfig?.observedAt ?? null,
  };
}

/** A reconcile that was queued (202). */
export function presentReconcileRequest(r: Node): Record<string, unknown> {
  return { ...snake<Node>(r), status: 'queued' };
}

/** The tenant's review settings. */
export function presentReviewSettings(r: Node): Record<string, unknown> {
  return { require_proposals: r.requireProposals };
}

/** The answer to a source-of-truth webhook delivery. */
export function presentSotWebhookResult(r: {
  result: string;
  deviceId: string | null;
  eventId: string | null;
  detail?: string | null;
}): Record<string, unknown> {
  return { result: r.result, device_id: r.deviceId, event_id: r.eventId, ...(r.detail ? { detail: r.detail } : {}) };
}
