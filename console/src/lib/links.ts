/**
 * Where an object lives in the console, by its GraphQL type and id: objects with a detail page link to
 * it, the others to the page that lists them. One place, used by the audit log and every id shown.
 */
const DETAIL: Record<string, (id: string) => string> = {
  Alert: (id) => `/alerts/${id}`,
  Event: (id) => `/events/${id}`,
  Device: (id) => `/devices/${id}`,
  OutboundWebhook: (id) => `/webhooks/${id}`,
  CreatedOutboundWebhook: (id) => `/webhooks/${id}`,
  Delivery: () => '/webhooks',
};
const LIST: Record<string, string> = {
  AlertRule: '/rules',
  MaintenanceWindow: '/rules',
  Proposal: '/proposals',
  InboundWebhook: '/inbound',
  IngestKey: '/inbound',
  RotatedIngestKey: '/inbound',
  Integration: '/integrations',
  RotatedIntegrationPushToken: '/integrations',
  Cluster: '/clusters',
  ClusterInvite: '/clusters',
  SavedReport: '/reports',
  ReportSchedule: '/reports',
  Dashboard: '/dashboards',
  AccessToken: '/tokens',
  MintedToken: '/tokens',
  User: '/admin/users',
  PasswordReset: '/admin/users',
  BillingBudget: '/billing',
  BillingSettings: '/billing',
  AssistantAction: '/copilot',
  AssistantConversation: '/copilot',
  AssistantTriage: '/alerts',
  Gpu: '/gpu',
};

export function hrefOf(type: string | null | undefined, id: string | null | undefined): string | null {
  if (!type) return null;
  const t = type.replace(/(Payload|WithSecret)$/, '');
  if (id && DETAIL[t]) return DETAIL[t](id);
  return LIST[t] ?? null;
}

/** A type name as words: `OutboundWebhook` → `outbound webhook`. */
export function typeWords(type: string): string {
  return type
    .replace(/(Payload|WithSecret)$/, '')
    .replace(/^Create(d)?(?=[A-Z])/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** The GraphQL type an evidence kind (triage checks and causes) names. */
const EVIDENCE_TYPE: Record<string, string> = {
  event: 'Event',
  alert: 'Alert',
  device: 'Device',
  proposal: 'Proposal',
  rule: 'AlertRule',
  integration: 'Integration',
  gpu: 'Gpu',
};

/**
 * Where an evidence item opens, by its kind and id. Drift reports and intent versions live on their
 * device's page: `deviceId` is the device they belong to when the caller knows it (an alert's triage
 * looks at the alert's device). null: nothing to open (the id is still shown in full).
 */
export function evidenceHref(kind: string, id: string, deviceId?: string | null): string | null {
  const k = kind.toLowerCase();
  if (k === 'drift_report' || k === 'intent_version') return deviceId ? `/devices/${deviceId}` : null;
  return hrefOf(EVIDENCE_TYPE[k], id);
}

/** The type an id-valued key of an action's arguments or result names (`device_id` → Device). */
export const ID_KEYS: Record<string, string> = {
  alert_id: 'Alert',
  event_id: 'Event',
  device_id: 'Device',
  proposal_id: 'Proposal',
  rule_id: 'AlertRule',
  maintenance_window_id: 'MaintenanceWindow',
  integration_id: 'Integration',
};
