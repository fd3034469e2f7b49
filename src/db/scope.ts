/**
 * Tenant scope, enforced in one place. `scopedDb(prisma, tenantId)` returns a client whose every
 * query on a tenant-owned model is filtered by (and every create stamped with) that tenant, so a
 * call site cannot forget it and another tenant's row looks exactly like a missing one.
 *
 * Convention: write relations with scalar foreign keys (`deviceId: x`), not nested `connect`,
 * because the stamped `tenantId` is a scalar too and Prisma does not mix the two input styles.
 */
import type { PrismaClient } from '../generated/prisma/client.js';

/** Models that carry a tenantId column. Child rows without one are reached through their parent. */
export const TENANT_OWNED_MODELS = new Set([
  'TenantSsoProvider',
  'IngestKey',
  'Schedule',
  'ScheduleLayer',
  'ScheduleOverride',
  'CalendarFeed',
  'EscalationPolicy',
  'EscalationStep',
  'AlertGroup',
  'AlertGroupMember',
  'ContactMethod',
  'NotificationRule',
  'Notification',
  'BillingMeter',
  'BillingUsage',
  'BillingWindow',
  'BillingPrice',
  'BillingSettings',
  'BillingBudget',
  'BillingBudgetAlert',
  'TriageSettings',
  'User',
  'PasswordLink',
  'Session',
  'AccessToken',
  'AuditLog',
  'Event',
  'InboundWebhook',
  'AlertRule',
  'AbsenceTracker',
  'Alert',
  'AlertTimelineEntry',
  'TimeInterval',
  'Silence',
  'RoutingTree',
  'RoutingReceiver',
  'InhibitRule',
  'OutboundWebhook',
  'OutboxMessage',
  'Delivery',
  'Device',
  'IntentVersion',
  'DriftReport',
  'Proposal',
  'AssistantConversation',
  'AssistantMessage',
  'AssistantTriage',
  'AssistantAction',
  'AssistantUsage',
  'SavedReport',
  'Dashboard',
  'ReportSchedule',
  'Integration',
  'IntegrationHealthCheck',
  'IntegrationProviderConfig',
  'ClusterInvite',
  'Cluster',
  'ClusterLink',
  'Gpu',
  'GpuSample',
  'GpuRollup',
  'GpuDiagnostic',
  'AiperfRun',
]);

const WHERE_OPS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'delete',
  'deleteMany',
  'upsert',
]);

function stamp<T>(data: T, tenantId: string): T {
  if (Array.isArray(data)) return data.map((d) => ({ ...d, tenantId })) as T;
  return { ...(data as object), tenantId } as T;
}

/** Builds the scoped client; cheap enough to create per request. */
export function scopedDb(prisma: PrismaClient, tenantId: string) {
  return prisma.$extends({
    name: 'tenant-scope',
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          if (!TENANT_OWNED_MODELS.has(model)) return query(args);
          const a = (args ?? {}) as Record<string, unknown>;
          if (WHERE_OPS.has(operation)) a.where = { ...(a.where as object), tenantId };
          if (operation === 'create' || operation === 'createMany' || operation === 'createManyAndReturn') {
            a.data = stamp(a.data, tenantId);
          }
          if (operation === 'upsert') a.create = stamp(a.create, tenantId);
          return query(a as typeof args);
        },
      },
    },
  }) as unknown as PrismaClient;
}
