/**
 * The objects the route sweep (test/sweep-rest.test.ts, test/sweep-graphql.test.ts) aims at: one of each kind in a tenant, made through
 * the services, keyed by entity name. A REST `:param` or GraphQL argument names its entity
 * (`alertId` / `alert(id)` → `Alert`); the sweep fails with a clear message when a new route names an
 * entity that has no builder here, so each new area adds one line.
 */
import crypto from 'node:crypto';
import type { Runtime } from '../../src/runtime.js';
import { createCtx } from '../../src/context.js';
import { createDevice } from '../../src/devices/devices.js';
import { openProposal } from '../../src/proposals/proposals.js';
import { createAlertRule } from '../../src/rules/rules.js';
import { createMaintenanceWindow } from '../../src/routing/maintenance-window-store.js';
import { createOutboundWebhook } from '../../src/webhooks/webhooks.js';
import { createInboundWebhook } from '../../src/events/inbound-webhooks.js';
import { mintToken } from '../../src/auth/tokens.js';
import { triageAlert } from '../../src/assistant/triage.js';
import { copilotChat } from '../../src/assistant/chat.js';
import { createSavedReport } from '../../src/reports/saved.js';
import { createDashboard } from '../../src/reports/dashboards.js';
import { createSchedule } from '../../src/reports/schedules.js';
import { createIntegration, putProviderConfig } from '../../src/integrations/integrations.js';
import { createClusterInvite, joinWithInvite } from '../../src/clusters/hub.js';
import { createMeter } from '../../src/billing/meters.js';
import { buildUser, principalOf, type BuiltTenant } from '../factories.js';

export type World = Record<string, string>;

/** Entity names the GraphQL schema or REST paths use for the same thing. */
export const ENTITY_ALIASES: Record<string, string> = {
  Token: 'AccessToken',
  Webhook: 'OutboundWebhook',
  Rule: 'AlertRule',
  Action: 'AssistantAction',
  Conversation: 'AssistantConversation',
  CopilotConversation: 'AssistantConversation',
  Report: 'SavedReport',
  IntegrationHealth: 'Integration',
  Run: 'AiperfRun',
  Diagnostic: 'GpuDiagnostic',
  Meter: 'BillingMeter',
  Group: 'AlertGroup',
  Policy: 'EscalationPolicy',
  Receiver: 'RoutingReceiver',
  Routing: 'RoutingReceiver',
  Override: 'ScheduleOverride',
  Feed: 'CalendarFeed',
  Method: 'ContactMethod',
  ContactMethod: 'ContactMethod',
  NotificationRule: 'NotificationRule',
  // node(id:)/nodes(ids:) take any object's id; the sweep aims an alert of the other tenant at them.
  Node: 'Alert',
};

/**
 * Path params whose entity the path names rather than the param: `/reports/schedules/:scheduleId` is a report's
 * schedule, while `scheduleId` elsewhere (`/schedules/:scheduleId`, GraphQL's `scheduleId`) is paging's Schedule.
 */
export const PATH_PARAM_ENTITIES: Array<{ path: string; param: string; entity: string }> = [
  { path: '/reports/schedules/:scheduleId', param: 'scheduleId', entity: 'ReportSchedule' },
];

/**
 * Path params that are not object ids, with a real value for each: `:provider` names a provider of the
 * integrations registry. A route whose params are all of these is not about another tenant's object.
 */
export const NON_ID_PARAMS: Record<string, string> = { provider: 'alertmanager', key: 'gpu.xid' };

/** What the other tenant's provider config points at: no response to the caller may show it. */
export const OTHER_TENANT_PROVIDER_URL = 'http://127.0.0.1:9/sweep-other-tenant-config';

/** One of each object in the tenant; returns entity name → id. */
export async function buildWorld(rt: Runtime, t: BuiltTenant): Promise<World> {
  const ctx = createCtx(rt, principalOf(t.admin), 'sweep-world');
  const tag = crypto.randomBytes(3).toString('hex');
  const device = await createDevice(ctx, { name: `sweep-${tag}`, role: 'edge', site: 'lab' });
  const other = await buildUser(rt, t.tenantId);
  const proposal = await openProposal(createCtx(rt, principalOf(other), 'sweep-world'), {
    title: 'sweep',
    kind: 'config',
    deviceId: device.id,
    proposedIntent: 'mtu 9000\n',
  });
  const rule = await createAlertRule(ctx, {
    name: `sweep-${tag}`,
    kind: 'match',
    typeGlob: 'sweep.*',
    alertSeverity: 'critical',
  });
  const window = await createMaintenanceWindow(ctx, {
    name: `sweep-${tag}`,
    startsAt: new Date(Date.now() + 86400_000),
    endsAt: new Date(Date.now() + 2 * 86400_000),
  });
  const outbound = await createOutboundWebhook(ctx, {
    name: `sweep-${tag}`,
    url: 'http://127.0.0.1:9/sweep',
    triggers: [{ on: 'ALERT_OPENED' }],
  });
  const inbound = await createInboundWebhook(ctx, { name: `sweep-${tag}` });
  const token = await mintToken(ctx, { name: `sweep-${tag}`, expiresInDays: null });
  // Already evaluated, so no background job changes the tenant while the sweep compares snapshots.
  const event = await rt.prisma.event.create({
    data: {
      tenantId: t.tenantId,
      type: 'sweep.happened',
      source: 'sweep',
      receivedVia: 'ingest',
      payload: {},
      evaluatedAt: new Date(),
    },
    select: { id: true },
  });
  const alert = await rt.prisma.alert.create({
    data: {
      tenantId: t.tenantId,
      severity: 'critical',
      summary: 'sweep',
      dedupKey: `sweep-${tag}`,
      liveDedupKey: `sweep-${tag}`,
      deviceId: device.id,
      ruleId: rule.id,
    },
    select: { id: true },
  });
  // A failed delivery: nothing re-drives it while the sweep runs.
  const delivery = await rt.prisma.delivery.create({
    data: {
      tenantId: t.tenantId,
      webhookId: outbound.webhook.id,
      topic: 'alert.opened',
      body: '{}',
      status: 'failed',
      failedAt: new Date(),
    },
    select: { id: true },
  });
  // The assistant's objects: a triage of the alert (with its proposed actions) and a copilot conversation.
  await triageAlert(ctx, { alertId: alert.id });
  const action = await rt.prisma.assistantAction.findFirstOrThrow({
    where: { alertId: alert.id },
    select: { id: true },
  });
  const chat = await copilotChat(ctx, { message: 'which alerts are critical right now?' });
  // Finished ones: no job touches them while the sweep runs.
  const diagnostic = await rt.prisma.gpuDiagnostic.create({
    data: {
      tenantId: t.tenantId,
      gpuIds: [],
      targetNode: 'sweep',
      level: 1,
      status: 'completed',
      result: 'pass',
      finishedAt: new Date(),
    },
    select: { id: true },
  });
  const run = await rt.prisma.aiperfRun.create({
    data: {
      tenantId: t.tenantId,
      endpointUrl: 'http://127.0.0.1:9',
      model: 'sweep',
      mode: 'concurrency',
      concurrency: 1,
      requestCount: 1,
      inputTokens: 1,
      outputTokens: 1,
      status: 'succeeded',
      finishedAt: new Date(),
    },
    select: { id: true },
  });
  // The lead's `gpu(id)` field needs one too. Already `missing`: the missing-GPU check would otherwise turn it
  // missing, with a `gpu.missing` event, six sample intervals in, while a slow sweep still runs.
  const gpu = await rt.prisma.gpu.create({
    data: {
      tenantId: t.tenantId,
      uuid: `GPU-sweep-${tag}`,
      node: 'sweep',
      index: 0,
      source: 'dcgm',
      health: 'missing',
    },
    select: { id: true },
  });
  // Reports: a saved report, a dashboard showing it, and a weekly schedule delivering it to the webhook.
  const report = await createSavedReport(ctx, { name: `sweep-${tag}`, query: { entity: 'alerts' } });
  const dashboard = await createDashboard(ctx, {
    name: `sweep-${tag}`,
    panels: [{ title: 'sweep', savedReportId: report.id, viz: 'table', position: { x: 0, y: 0, w: 4, h: 3 } }],
  });
  const schedule = await createSchedule(ctx, {
    savedReportId: report.id,
    webhookId: outbound.webhook.id,
    cron: '0 8 * * 1',
  });
  // Integrations: a push integration (no probe, no freshness check) and the tenant's alertmanager config.
  const integration = await createIntegration(ctx, {
    provider: 'webhook',
    name: `sweep-${tag}`,
    freshnessSeconds: null,
  });
  await putProviderConfig(ctx, NON_ID_PARAMS.provider!, { url: OTHER_TENANT_PROVIDER_URL });
  // Clusters: a member cluster that joined with an invite.
  const invite = await createClusterInvite(ctx, { hubUrl: 'http://127.0.0.1:9' });
  const { cluster } = await joinWithInvite(rt, { invite: invite.token, name: `sweep-${tag}` });
  // Billing: a custom meter.
  const meter = await createMeter(ctx, { slug: `sweep-${tag}`, typeGlob: 'sweep.*', aggregation: 'count' });
  // Paging and routing: a paging schedule with an override and a feed, a policy, the alert's group, a contact
  // method with a rule, a time interval and a silence (ending in a day: no release job touches it meanwhile).
  const pagingSchedule = await rt.prisma.schedule.create({
    data: { tenantId: t.tenantId, name: `sweep-${tag}`, timeZone: 'Europe/Amsterdam' },
    select: { id: true },
  });
  const override = await rt.prisma.scheduleOverride.create({
    data: {
      tenantId: t.tenantId,
      scheduleId: pagingSchedule.id,
      userId: other.id,
      startsAt: new Date(Date.now() + 86400_000),
      endsAt: new Date(Date.now() + 2 * 86400_000),
    },
    select: { id: true },
  });
  const feed = await rt.prisma.calendarFeed.create({
    data: {
      tenantId: t.tenantId,
      scheduleId: pagingSchedule.id,
      tokenHash: crypto.randomBytes(32).toString('hex'),
      tokenPrefix: 'sweep',
    },
    select: { id: true },
  });
  const policy = await rt.prisma.escalationPolicy.create({
    data: { tenantId: t.tenantId, name: `sweep-${tag}` },
    select: { id: true },
  });
  const group = await rt.prisma.alertGroup.create({
    data: { tenantId: t.tenantId, groupKey: `alert:${alert.id}`, liveGroupKey: `alert:${alert.id}` },
    select: { id: true },
  });
  await rt.prisma.alert.update({ where: { id: alert.id }, data: { groupId: group.id } });
  const method = await rt.prisma.contactMethod.create({
    data: { tenantId: t.tenantId, userId: t.admin.id, kind: 'inbox', name: `sweep-${tag}`, address: 'inbox' },
    select: { id: true },
  });
  const notificationRule = await rt.prisma.notificationRule.create({
    data: { tenantId: t.tenantId, userId: t.admin.id, urgency: 'high', contactMethodId: method.id },
    select: { id: true },
  });
  const interval = await rt.prisma.timeInterval.create({
    data: { tenantId: t.tenantId, name: `sweep-${tag}`, intervals: [{ weekdays: ['sunday'] }] },
    select: { id: true },
  });
  const silence = await rt.prisma.silence.create({
    data: {
      tenantId: t.tenantId,
      matchers: [{ name: 'sweep', value: tag, isRegex: false, isEqual: true }],
      startsAt: new Date(),
      endsAt: new Date(Date.now() + 86400_000),
      createdBy: 'sweep',
      comment: 'sweep',
    },
    select: { id: true },
  });
  const receiver = await rt.prisma.routingReceiver.create({
    data: { tenantId: t.tenantId, name: `sweep-${tag}` },
    select: { id: true },
  });
  const inhibitRule = await rt.prisma.inhibitRule.create({
    data: {
      tenantId: t.tenantId,
      sourceMatchers: [{ name: 'sweep', type: '=', value: tag }],
      targetMatchers: [],
      equal: ['instance'],
    },
    select: { id: true },
  });
  return {
    Schedule: pagingSchedule.id,
    InhibitRule: inhibitRule.id,
    RoutingReceiver: receiver.id,
    ScheduleOverride: override.id,
    CalendarFeed: feed.id,
    EscalationPolicy: policy.id,
    AlertGroup: group.id,
    ContactMethod: method.id,
    NotificationRule: notificationRule.id,
    TimeInterval: interval.id,
    Silence: silence.id,
    BillingMeter: meter.id,
    SavedReport: report.id,
    Dashboard: dashboard.id,
    ReportSchedule: schedule.id,
    Integration: integration.integration.id,
    Cluster: cluster.id,
    AssistantAction: action.id,
    AssistantConversation: chat.conversation.id,
    Gpu: gpu.id,
    GpuDiagnostic: diagnostic.id,
    AiperfRun: run.id,
    Alert: alert.id,
    AlertRule: rule.id,
    Device: device.id,
    Proposal: proposal.id,
    MaintenanceWindow: window.id,
    OutboundWebhook: outbound.webhook.id,
    InboundWebhook: inbound.webhook.id,
    AccessToken: token.token.id,
    User: other.id,
    Event: event.id,
    Delivery: delivery.id,
  };
}

/** Everything a tenant owns that a request could change, as comparable JSON (last-use stamps left out). */
export async function snapshotTenant(rt: Runtime, tenantId: string): Promise<string> {
  const where = { where: { tenantId } };
  const rows = await Promise.all([
    rt.prisma.alert.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.alertRule.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.device.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.proposal.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.outboundWebhook.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.inboundWebhook.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.routingReceiver.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.routingTree.findMany(where),
    rt.prisma.inhibitRule.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.accessToken.findMany({ ...where, orderBy: { id: 'asc' }, omit: { lastUsedAt: true } }),
    rt.prisma.user.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.event.count(where),
    rt.prisma.gpuDiagnostic.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.aiperfRun.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.savedReport.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.dashboard.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.reportSchedule.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.billingMeter.findMany({ ...where, orderBy: { id: 'asc' } }),
    // Health fields (and the updatedAt the check stamps with them, once a minute) are the periodic health
    // check's to update; the rest is what a request could change.
    rt.prisma.integration.findMany({
      ...where,
      orderBy: { id: 'asc' },
      omit: { healthStatus: true, healthChecks: true, healthReason: true, healthCheckedAt: true, updatedAt: true },
    }),
    rt.prisma.integrationProviderConfig.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.cluster.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.clusterInvite.findMany({ ...where, orderBy: { id: 'asc' } }),
    // Paging and routing.
    rt.prisma.schedule.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.scheduleLayer.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.scheduleOverride.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.calendarFeed.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.escalationPolicy.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.escalationStep.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.alertGroup.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.contactMethod.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.notificationRule.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.notification.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.silence.findMany({ ...where, orderBy: { id: 'asc' } }),
    rt.prisma.timeInterval.findMany({ ...where, orderBy: { id: 'asc' } }),
  ]);
  return JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
}
