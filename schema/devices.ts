/**
 * GraphQL of the devices area (source of truth): devices with their intent history, observed
 * configuration, drift, events, alerts and proposals; inventory CRUD (admins) and `deviceChanged`.
 * Intent edits, the agent path for observed configuration and reconcile are schema/device-config.ts.
 *
 * Relations are Pothos prisma selections (`t.relation`, `t.relatedConnection`, `select` with
 * `nestedSelection`), so a nested query is planned into one SQL statement per level, not per row.
 */
import { filter as filterIterable, pipe } from 'graphql-yoga';
import type { Prisma } from '../src/generated/prisma/client.js';
import { builder, found, upperCaseValues, NodeRef } from './builder.js';
import {
  AlertConnection,
  DeviceConnection,
  DriftReportConnection,
  EventConnection,
  IntentVersionConnection,
  PAGE,
  ProposalConnection,
} from './connections.js';
import { ProposalStatusEnum } from './proposals.js';
import { requireUser } from '../src/context.js';
import { createDevice, deleteDevice, updateDevice } from '../src/devices/devices.js';
import { OPEN_PROPOSAL_STATUSES } from '../src/proposals/states.js';
import { NEWEST_FIRST } from '../src/events/timeline.js';

const ObservedConfigRef = builder.objectRef<{ config: string; observedAt: Date | null }>('ObservedConfig').implement({
  description: 'What the device was last seen running, as reported by an agent or the source of truth.',
  fields: (t) => ({
    config: t.exposeString('config'),
    observedAt: t.expose('observedAt', { type: 'DateTime', nullable: true }),
  }),
});

const IntentVersionRef = builder.prismaObject('IntentVersion', {
  description: "One version of a device's intended configuration. Versions are never changed, only added.",
  fields: (t) => ({
    id: t.exposeID('id'),
    version: t.exposeInt('version'),
    config: t.exposeString('config'),
    comment: t.exposeString('comment', { nullable: true }),
    author: t.relation('author', { nullable: true }),
    proposal: t.relation('proposal', {
      nullable: true,
      description: 'The approved proposal this version came from; null for a direct edit.',
    }),
    device: t.relation('device'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const DriftStatusEnum = builder.enumType('DriftStatus', {
  values: upperCaseValues(['in_sync', 'drifted', 'unknown'] as const),
});

const DriftReportRef = builder.prismaObject('DriftReport', {
  description: 'The result of one reconcile: the intent compared with the observed configuration.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({
      type: DriftStatusEnum,
      resolve: (r) => (r.detail ? 'unknown' : r.inSync ? 'in_sync' : 'drifted'),
    }),
    inSync: t.exposeBoolean('inSync'),
    diff: t.exposeString('diff', {
      description: 'Unified diff from intended (---) to observed (+++); empty when in sync.',
    }),
    detail: t.exposeString('detail', {
      nullable: true,
      description: 'Why nothing could be compared (no intent, nothing observed).',
    }),
    intentVersion: t.exposeInt('intentVersion', { nullable: true }),
    observedAt: t.expose('observedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    device: t.relation('device'),
  }),
});

builder.prismaObject('Device', {
  interfaces: [NodeRef],
  description: 'A device in the source of truth: what it is, what it should run, what it was seen running.',
  // Always loaded: the id; every column only when a query asks for it (schema/loaded-scalars.ts).
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    role: t.exposeString('role', { nullable: true }),
    site: t.exposeString('site', { nullable: true }),
    platform: t.exposeString('platform', { nullable: true }),
    managementAddress: t.exposeString('managementAddress', { nullable: true }),
    labels: t.expose('labels', { type: 'JSON' }),
    aliases: t.exposeStringList('aliases', {
      description:
        'Other names events call the device by. An event links to the device whose name or alias equals its source, or its host, device, instance (without the port) or node label.',
    }),
    externalId: t.exposeString('externalId', {
      nullable: true,
      description: 'Id in the upstream source of truth (NetBox), set by its webhook.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    observedConfig: t.field({
      type: ObservedConfigRef,
      nullable: true,
      select: { observedConfig: true, observedAt: true },
      resolve: (d) => (d.observedConfig == null ? null : { config: d.observedConfig, observedAt: d.observedAt }),
    }),
    intent: t.field({
      type: IntentVersionRef,
      nullable: true,
      description: 'The current intended configuration (the highest version).',
      select: (_args, _ctx, nestedSelection) => ({
        intents: nestedSelection({ orderBy: { version: 'desc' }, take: 1 }),
      }),
      resolve: (d) => d.intents[0] ?? null,
    }),
    intentHistory: t.relatedConnection(
      'intents',
      {
        cursor: 'id',
        totalCount: true,
        description: 'Every intent version, newest first.',
        query: () => ({ orderBy: { version: 'desc' } }),
      },
      IntentVersionConnection,
    ),
    drift: t.field({
      type: DriftReportRef,
      nullable: true,
      description: 'The latest reconcile result.',
      select: (_args, _ctx, nestedSelection) => ({
        drifts: nestedSelection({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 1 }),
      }),
      resolve: (d) => d.drifts[0] ?? null,
    }),
    driftReports: t.relatedConnection(
      'drifts',
      { cursor: 'id', totalCount: true, query: () => ({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }) },
      DriftReportConnection,
    ),
    events: t.relatedConnection(
      'events',
      {
        cursor: 'id',
        totalCount: true,
        description: "The device's timeline, newest first.",
        query: () => ({ orderBy: NEWEST_FIRST }),
      },
      EventConnection,
    ),
    alerts: t.relatedConnection(
      'alerts',
      {
        cursor: 'id',
        description: "The device's alerts, newest first.",
        args: { open: t.arg.boolean({ description: 'Only alerts not resolved yet.' }) },
        totalCount: true,
        query: (args) => ({
          where: args.open ? { status: { not: 'resolved' as const } } : {},
          orderBy: { id: 'desc' },
        }),
      },
      AlertConnection,
    ),
    proposals: t.relatedConnection(
      'proposals',
      {
        cursor: 'id',
        args: {
          status: t.arg({ type: ProposalStatusEnum }),
          open: t.arg.boolean({ description: 'Only proposed or approved ones.' }),
        },
        query: (args) => ({
          where: args.status
            ? { status: args.status }
            : args.open
              ? { status: { in: [...OPEN_PROPOSAL_STATUSES] } }
              : {},
          orderBy: { id: 'desc' },
        }),
        totalCount: true,
      },
      ProposalConnection,
    ),
  }),
});

// Alert is the alerts area's type (schema/alerts.ts); the device side of the relation lives here.
builder.prismaObjectFields('Alert', (t) => ({
  device: t.relation('device', { nullable: true, description: 'The device the alert is about, if any.' }),
}));

// Event is the events area's type (schema/events.ts); its device lives here, as the alert's does.
builder.prismaObjectFields('Event', (t) => ({
  device: t.relation('device', { nullable: true, description: 'The device the event is about, if any.' }),
}));

const DeviceFilterInput = builder.inputType('DeviceFilter', {
  fields: (t) => ({
    site: t.string(),
    role: t.string(),
    platform: t.string(),
    search: t.string({ description: 'Case-insensitive text in the name or management address.' }),
    labels: t.field({ type: 'JSON', description: 'Object of label → value; devices must carry all of them.' }),
  }),
});

type DeviceFilter = {
  site?: string | null;
  role?: string | null;
  platform?: string | null;
  search?: string | null;
  labels?: unknown;
};

function deviceWhere(f: DeviceFilter | null | undefined): Prisma.DeviceWhereInput {
  if (!f) return {};
  const where: Prisma.DeviceWhereInput = {};
  if (f.site) where.site = f.site;
  if (f.role) where.role = f.role;
  if (f.platform) where.platform = f.platform;
  if (f.search)
    where.OR = [
      { name: { contains: f.search, mode: 'insensitive' } },
      { managementAddress: { contains: f.search, mode: 'insensitive' } },
    ];
  if (f.labels && typeof f.labels === 'object' && !Array.isArray(f.labels))
    where.AND = Object.entries(f.labels).map(([k, v]) => ({ labels: { path: [k], equals: String(v) } }));
  return where;
}

builder.queryFields((t) => ({
  devices: t.prismaConnection(
    {
      type: 'Device',
      cursor: 'id',
      authScopes: { user: true },
      ...PAGE,
      description: 'Devices of the tenant, by name.',
      args: { filter: t.arg({ type: DeviceFilterInput }) },
      totalCount: (_conn, args, ctx) => ctx.db.device.count({ where: deviceWhere(args.filter) }),
      resolve: (query, _root, args, ctx) =>
        ctx.db.device.findMany({
          ...query,
          where: deviceWhere(args.filter),
          orderBy: [{ name: 'asc' }, { id: 'asc' }],
        }),
    },
    DeviceConnection,
  ),
  device: t.prismaField({
    type: 'Device',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Device', await ctx.db.device.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

const DeviceInput = builder.inputType('DeviceInput', {
  description: 'A new device (name is required).',
  fields: (t) => ({
    name: t.string(),
    role: t.string(),
    site: t.string(),
    platform: t.string(),
    managementAddress: t.string({ description: 'IP address or host name.' }),
    labels: t.field({ type: 'JSON', description: 'Object of string → string.' }),
    aliases: t.stringList({
      description:
        'Other names events call the device by: an event whose source, or host/device/instance/node label, is the name or an alias links to the device.',
    }),
  }),
});
const UpdateDeviceInput = builder.inputType('UpdateDeviceInput', {
  description: 'Omitted fields stay; null clears one (except name).',
  fields: (t) => ({
    name: t.string(),
    role: t.string(),
    site: t.string(),
    platform: t.string(),
    managementAddress: t.string({ description: 'IP address or host name.' }),
    labels: t.field({ type: 'JSON', description: 'Object of string → string.' }),
    aliases: t.stringList({
      description:
        'Other names events call the device by: an event whose source, or host/device/instance/node label, is the name or an alias links to the device.',
    }),
  }),
});

function labelsArg(v: unknown): Record<string, string> | null | undefined {
  return v as Record<string, string> | null | undefined;
}

builder.mutationFields((t) => ({
  createDevice: t.prismaField({
    type: 'Device',
    authScopes: { admin: true },
    description: 'Adds a device to the inventory (admins).',
    args: { input: t.arg({ type: DeviceInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const d = await createDevice(ctx, { ...input, name: input.name ?? '', labels: labelsArg(input.labels) });
      return ctx.db.device.findUniqueOrThrow({ ...query, where: { id: d.id } });
    },
  }),
  updateDevice: t.prismaField({
    type: 'Device',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateDeviceInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const d = await updateDevice(ctx, String(args.id), { ...args.input, labels: labelsArg(args.input.labels) });
      return ctx.db.device.findUniqueOrThrow({ ...query, where: { id: d.id } });
    },
  }),
  deleteDevice: t.id({
    authScopes: { admin: true },
    description:
      'Removes the device with its intent history and drift reports; alerts, events and proposals stay, detached.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await deleteDevice(ctx, String(args.id))).id,
  }),
}));

const DeviceChangeRef = builder.objectRef<{ id: string; name: string; change: string }>('DeviceChange').implement({
  description: 'A device was created, updated, deleted, got a new intent or observed config, or was reconciled.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    change: t.exposeString('change', {
      description:
        'created | updated | deleted | intent_changed | config_observed | reconciled | events_linked (rule evaluation linked new events to the device)',
    }),
    device: t.prismaField({
      type: 'Device',
      nullable: true,
      description: 'The device now (null after a deletion).',
      resolve: (query, c, _args, ctx) => ctx.db.device.findUnique({ ...query, where: { id: c.id } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  deviceChanged: t.field({
    type: DeviceChangeRef,
    authScopes: { user: true },
    description: "Changes to the tenant's devices, optionally one device or one kind of change.",
    args: { id: t.arg.id(), change: t.arg.string() },
    subscribe: (_root, args, ctx) => {
      const me = requireUser(ctx);
      return pipe(
        ctx.rt.pubsub.subscribe('deviceChanged', me.tenantId),
        filterIterable((m) => (!args.id || m.id === String(args.id)) && (!args.change || m.change === args.change)),
      );
    },
    resolve: (m) => m as never,
  }),
}));
