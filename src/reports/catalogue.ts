/**
 * The field catalogue of the report query language: per entity, its table, time field and the fields a
 * query may name (type, allowed ops, description, enum values) with the SQL expression each one compiles
 * to. Every identifier that reaches SQL comes from here; user text only ever travels as a parameter.
 */

export const ENTITIES = ['events', 'alerts', 'devices', 'proposals'] as const;
export type Entity = (typeof ENTITIES)[number];

export const FIELD_TYPES = ['string', 'text', 'enum', 'integer', 'timestamp', 'boolean', 'label', 'json'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const OPS = ['eq', 'ne', 'in', 'not_in', 'contains', 'prefix', 'gt', 'gte', 'lt', 'lte', 'exists'] as const;
export type Op = (typeof OPS)[number];

/** Which ops each field type accepts. */
export const OPS_BY_TYPE: Record<FieldType, readonly Op[]> = {
  string: ['eq', 'ne', 'in', 'not_in', 'contains', 'prefix', 'exists'],
  text: ['eq', 'ne', 'contains', 'prefix', 'exists'],
  enum: ['eq', 'ne', 'in', 'not_in', 'exists'],
  integer: ['eq', 'ne', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte', 'exists'],
  timestamp: ['gt', 'gte', 'lt', 'lte', 'exists'],
  boolean: ['eq', 'ne', 'exists'],
  label: ['eq', 'ne', 'in', 'not_in', 'contains', 'prefix', 'exists'],
  json: ['eq', 'ne', 'in', 'not_in', 'contains', 'prefix', 'gt', 'gte', 'lt', 'lte', 'exists'],
};

export const AGGREGATE_FNS = ['count', 'count_distinct', 'sum', 'avg', 'min', 'max', 'p50', 'p95'] as const;
export type AggregateFn = (typeof AGGREGATE_FNS)[number];

/** Time buckets and the Postgres interval each one stands for (the interval is fixed text from here). */
export const BUCKETS = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': '1 hour',
  '6h': '6 hours',
  '12h': '12 hours',
  '1d': '1 day',
  '1w': '7 days',
} as const;
export type Bucket = keyof typeof BUCKETS;

export interface FieldDef {
  name: string;
  type: FieldType;
  description: string;
  values?: readonly string[];
  /** SQL expression over the entity's row alias `t` (fixed text). */
  sql: string;
  /** Fields that can be grouped on (long free text cannot). */
  groupable: boolean;
}

export interface EntityDef {
  name: Entity;
  /** Quoted table name as created by the migrations. */
  table: string;
  /** The field `since_hours` and `bucket` apply to. */
  timeField: string;
  /** May `since_hours` be null (no time window)? Only for the small tables. */
  windowOptional: boolean;
  hasLabels: boolean;
  hasPayload: boolean;
  /** Columns of a query that names none. */
  defaultColumns: string[];
  fields: FieldDef[];
}

const SEVERITY = ['info', 'warning', 'critical'] as const;

function f(
  name: string,
  column: string,
  type: FieldType,
  description: string,
  extra: Partial<FieldDef> = {},
): FieldDef {
  return { name, type, description, sql: `t."${column}"`, groupable: type !== 'text', ...extra };
}

/** The device name of a row with a `deviceId`, read from the same tenant only. */
const DEVICE_NAME = `(SELECT d."name" FROM "Device" d WHERE d."id" = t."deviceId" AND d."tenantId" = t."tenantId")`;

export const CATALOGUE: Record<Entity, EntityDef> = {
  events: {
    name: 'events',
    table: '"Event"',
    timeField: 'received_at',
    windowOptional: false,
    hasLabels: true,
    hasPayload: true,
    defaultColumns: ['id', 'received_at', 'type', 'source', 'severity', 'summary'],
    fields: [
      f('id', 'id', 'string', 'Event id.'),
      f('type', 'type', 'string', 'Event type, `<system>.<verb>` such as `deploy.started`.'),
      f('module', 'module', 'string', 'Module that sent the event.'),
      f('source', 'source', 'string', 'Sending system or host, e.g. `ci`.'),
      f('summary', 'summary', 'text', 'One-line summary.'),
      f('severity', 'severity', 'enum', 'Severity.', { values: SEVERITY }),
      f('received_via', 'receivedVia', 'enum', 'How the event arrived.', {
        values: ['ingest', 'webhook', 'sot', 'system'],
      }),
      f('received_at', 'receivedAt', 'timestamp', 'When the service stored the event (the time field).'),
      f('device_id', 'deviceId', 'string', 'Device the event is about.'),
      f('device', 'deviceId', 'string', 'Name of the device the event is about.', { sql: DEVICE_NAME }),
    ],
  },
  alerts: {
    name: 'alerts',
    table: '"Alert"',
    timeField: 'created_at',
    windowOptional: false,
    hasLabels: true,
    hasPayload: false,
    defaultColumns: ['id', 'created_at', 'severity', 'status', 'source', 'summary', 'count'],
    fields: [
      f('id', 'id', 'string', 'Alert id.'),
      f('status', 'status', 'enum', 'Lifecycle state.', { values: ['open', 'acknowledged', 'snoozed', 'resolved'] }),
      f('severity', 'severity', 'enum', 'Severity.', { values: SEVERITY }),
      f('summary', 'summary', 'text', 'One-line summary.'),
      f('source', 'source', 'string', 'Source of the events that raised it.'),
      f('dedup_key', 'dedupKey', 'string', 'Deduplication key.'),
      f('count', 'count', 'integer', 'How many events it has absorbed.'),
      f('first_seen_at', 'firstSeenAt', 'timestamp', 'First matching event.'),
      f('last_seen_at', 'lastSeenAt', 'timestamp', 'Latest matching event.'),
      f('created_at', 'createdAt', 'timestamp', 'When the alert opened (the time field).'),
      f('acknowledged_at', 'acknowledgedAt', 'timestamp', 'When it was acknowledged.'),
      f('resolved_at', 'resolvedAt', 'timestamp', 'When it was resolved.'),
      f(
        'suppressed',
        'suppressed',
        'boolean',
        'Muted when it opened (a silence, a maintenance window or an inhibiting alert).',
      ),
      f('rule_id', 'ruleId', 'string', 'Rule that raised it.'),
      f('assignee_id', 'assigneeId', 'string', 'Assigned user.'),
      f('device_id', 'deviceId', 'string', 'Device it is about.'),
      f('device', 'deviceId', 'string', 'Name of the device it is about.', { sql: DEVICE_NAME }),
    ],
  },
  devices: {
    name: 'devices',
    table: '"Device"',
    timeField: 'created_at',
    windowOptional: true,
    hasLabels: true,
    hasPayload: false,
    defaultColumns: ['id', 'name', 'role', 'site', 'platform', 'created_at'],
    fields: [
      f('id', 'id', 'string', 'Device id.'),
      f('name', 'name', 'string', 'Device name.'),
      f('role', 'role', 'string', 'Role, e.g. `edge`.'),
      f('site', 'site', 'string', 'Site.'),
      f('platform', 'platform', 'string', 'Platform.'),
      f('management_address', 'managementAddress', 'string', 'Management address.'),
      f('external_id', 'externalId', 'string', 'Id in an upstream source of truth.'),
      f('observed_at', 'observedAt', 'timestamp', 'When its configuration was last observed.'),
      f('created_at', 'createdAt', 'timestamp', 'When it was added (the time field).'),
      f('updated_at', 'updatedAt', 'timestamp', 'Last change.'),
      f('open_proposals', 'id', 'integer', 'How many of its proposals are still open (proposed or approved).', {
        sql: `(SELECT count(*) FROM "Proposal" p WHERE p."deviceId" = t."id" AND p."tenantId" = t."tenantId" AND p."status" IN ('proposed', 'approved'))::int8`,
      }),
      f('open_alerts', 'id', 'integer', 'How many of its alerts are not resolved.', {
        sql: `(SELECT count(*) FROM "Alert" a WHERE a."deviceId" = t."id" AND a."tenantId" = t."tenantId" AND a."status" <> 'resolved')::int8`,
      }),
    ],
  },
  proposals: {
    name: 'proposals',
    table: '"Proposal"',
    timeField: 'created_at',
    windowOptional: true,
    hasLabels: false,
    hasPayload: false,
    defaultColumns: ['id', 'created_at', 'title', 'kind', 'status', 'device'],
    fields: [
      f('id', 'id', 'string', 'Proposal id.'),
      f('title', 'title', 'text', 'Title.'),
      f('kind', 'kind', 'string', 'Kind, e.g. `config_change`.'),
      f('status', 'status', 'enum', 'State.', { values: ['proposed', 'approved', 'denied', 'applied', 'failed'] }),
      f('revision', 'revision', 'integer', 'Revision (bumped by every edit).'),
      f('device_id', 'deviceId', 'string', 'Target device.'),
      f('device', 'deviceId', 'string', 'Name of the target device.', { sql: DEVICE_NAME }),
      f('proposer_id', 'proposerId', 'string', 'Who proposed it.'),
      f('approver_id', 'approverId', 'string', 'Who approved it.'),
      f('created_at', 'createdAt', 'timestamp', 'When it was opened (the time field).'),
      f('updated_at', 'updatedAt', 'timestamp', 'Last change.'),
      f('approved_at', 'approvedAt', 'timestamp', 'When it was approved.'),
      f('applied_at', 'appliedAt', 'timestamp', 'When it was applied.'),
    ],
  },
};

/** Label keys: letters, digits and `_ . / -`, as Kubernetes-style keys are written. */
export const LABEL_KEY = /^[A-Za-z0-9_./-]{1,128}$/;
/** Payload paths: up to 8 dot-separated segments of letters, digits, `_` and `-`. */
export const PAYLOAD_PATH = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,7}$/;

/** A resolved field reference: a catalogue field, a label (`labels.env`) or a payload path (`payload.build.sha`). */
export type FieldRef =
  | { kind: 'field'; name: string; def: FieldDef }
  | { kind: 'label'; name: string; key: string; type: 'label' }
  | { kind: 'payload'; name: string; path: string[]; type: 'json' };

/** Resolves a field name for the entity, or says why it cannot. */
export function resolveField(entity: Entity, name: unknown): FieldRef | { error: string } {
  if (typeof name !== 'string' || !name) return { error: 'must be a field name' };
  const def = CATALOGUE[entity];
  if (name.startsWith('labels.')) {
    if (!def.hasLabels) return { error: `${entity} have no labels` };
    const key = name.slice('labels.'.length);
    if (!LABEL_KEY.test(key)) return { error: 'a label key is 1 to 128 letters, digits or _ . / -' };
    return { kind: 'label', name, key, type: 'label' };
  }
  if (name.startsWith('payload.')) {
    if (!def.hasPayload) return { error: `${entity} have no payload` };
    const p = name.slice('payload.'.length);
    if (!PAYLOAD_PATH.test(p))
      return { error: 'a payload path is up to 8 dot-separated segments of letters, digits, _ or -' };
    return { kind: 'payload', name, path: p.split('.'), type: 'json' };
  }
  const field = def.fields.find((x) => x.name === name);
  if (!field)
    return {
      error: `unknown field for ${entity}; known: ${def.fields.map((x) => x.name).join(', ')}${def.hasLabels ? ', labels.<key>' : ''}${def.hasPayload ? ', payload.<path>' : ''}`,
    };
  return { kind: 'field', name, def: field };
}

/** The type of a resolved field. */
export function typeOf(ref: FieldRef): FieldType {
  return ref.kind === 'field' ? ref.def.type : ref.type;
}

/** The catalogue as published by GET /reports/query/schema and `reportSchema`. */
export function publicCatalogue() {
  return ENTITIES.map((e) => {
    const d = CATALOGUE[e];
    return {
      entity: e,
      time_field: d.timeField,
      window_optional: d.windowOptional,
      labels: d.hasLabels,
      payload: d.hasPayload,
      default_columns: d.defaultColumns,
      fields: d.fields.map((x) => ({
        name: x.name,
        type: x.type,
        ops: [...OPS_BY_TYPE[x.type]],
        description: x.description,
        ...(x.values ? { values: [...x.values] } : {}),
      })),
    };
  });
}
