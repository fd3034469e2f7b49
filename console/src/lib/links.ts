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
