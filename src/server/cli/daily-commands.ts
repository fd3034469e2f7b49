/**
 * The operator's daily commands inside a tenant: alert rules, devices and webhooks (users and password
 * resets: user-commands.ts). Each is a thin shell over the area's service (src/rules, src/devices, src/webhooks,
 * src/events, src/users): parse options → call the service → JSON (the REST shape where one exists)
 * and a line of text. Changes are written to the tenant's audit log with credential kind `system`.
 *
 * Services that act "as someone" (devices record who created them) act as `--as EMAIL`, an admin of
 * the tenant, or by default the tenant's first admin, with the credential `system:cli`.
 */
import { createAlertRule, deleteAlertRule, type AlertRuleInput } from '../../rules/rules.js';
import { createDevice } from '../../devices/devices.js';
import { createOutboundWebhook } from '../../webhooks/webhooks.js';
import { TRIGGER_TOPICS, type TriggerOn } from '../../webhooks/triggers.js';
import { createInboundWebhook, inboundWebhookUrl } from '../../events/inbound-webhooks.js';
import { presentAlertRule } from '../../../rest/presenters/rules.js';
import { UsageError, type Command } from './commands.js';
import { audit, opt, severities, str, table, tenantCtx, TENANT_OPTS } from './tenant-command-helpers.js';
import { userCommands } from './user-commands.js';

const ruleList: Command = {
  name: 'rule list',
  summary: "List a tenant's alert rules.",
  synopsis: '--tenant T [--json]',
  options: { tenant: { type: 'string' } },
  required: ['tenant'],
  async run(rt, v) {
    const { ctx } = await tenantCtx(rt, v);
    const rules = await ctx.db.alertRule.findMany({ orderBy: { createdAt: 'asc' } });
    return {
      json: { items: rules.map((r) => presentAlertRule(r as never)) },
      text: table(
        rules.map((r) => [
          r.id,
          r.kind,
          r.enabled ? 'enabled' : 'disabled',
          r.name,
          r.typeGlob ?? '*',
          r.kind === 'absence' ? `${r.windowSeconds}s` : r.alertSeverity,
        ]),
      ),
    };
  },
};

const ruleCreate: Command = {
  name: 'rule create',
  summary:
    'Create an alert rule: a match rule (each matching event opens an alert) or, with --kind absence, a heartbeat rule.',
  synopsis:
    '--tenant T --name N [--kind match|absence] [--type-glob G] [--severity s,...] [--module M] [--source S] [--window-seconds N] [--alert-severity s] [--summary-template T] [--as EMAIL] [--json]',
  options: {
    ...TENANT_OPTS,
    name: { type: 'string' },
    kind: { type: 'string' },
    'type-glob': { type: 'string' },
    severity: { type: 'string' },
    module: { type: 'string' },
    source: { type: 'string' },
    'window-seconds': { type: 'string' },
    'alert-severity': { type: 'string' },
    'summary-template': { type: 'string' },
  },
  required: ['tenant', 'name'],
  fieldOptions: {
    name: '--name',
    typeGlob: '--type-glob',
    severities: '--severity',
    module: '--module',
    source: '--source',
    windowSeconds: '--window-seconds',
    summaryTemplate: '--summary-template',
  },
  async run(rt, v) {
    const kind = opt(v, 'kind') ?? 'match';
    if (kind !== 'match' && kind !== 'absence') throw new UsageError(`--kind must be match or absence, got "${kind}".`);
    const window = opt(v, 'window-seconds');
    if (window !== undefined && !/^\d+$/.test(window))
      throw new UsageError(`--window-seconds must be a whole number of seconds, got "${window}".`);
    const alertSeverity = severities(opt(v, 'alert-severity'), '--alert-severity');
    if (alertSeverity && alertSeverity.length !== 1) throw new UsageError('--alert-severity takes one severity.');
    const input: AlertRuleInput = {
      name: str(v, 'name'),
      kind,
      typeGlob: opt(v, 'type-glob') ?? null,
      severities: severities(opt(v, 'severity'), '--severity') ?? [],
      module: opt(v, 'module') ?? null,
      source: opt(v, 'source') ?? null,
      windowSeconds: window === undefined ? null : Number(window),
      alertSeverity: alertSeverity?.[0] ?? null,
      summaryTemplate: opt(v, 'summary-template') ?? null,
    };
    const { ctx, tenant } = await tenantCtx(rt, v);
    const rule = await createAlertRule(ctx, input);
    await audit(ctx, { action: 'createAlertRule', targetType: 'AlertRule', targetId: rule.id });
    return {
      json: presentAlertRule(rule as never),
      text: `Alert rule "${rule.name}" (${rule.kind}, id ${rule.id}) created in tenant "${tenant.name}".`,
    };
  },
};

const ruleDelete: Command = {
  name: 'rule delete',
  summary: 'Delete an alert rule (its alerts stay).',
  synopsis: '--tenant T --id ID [--json]',
  options: { ...TENANT_OPTS, id: { type: 'string' } },
  required: ['tenant', 'id'],
  async run(rt, v) {
    const { ctx } = await tenantCtx(rt, v);
    const rule = await deleteAlertRule(ctx, str(v, 'id'));
    await audit(ctx, { action: 'deleteAlertRule', targetType: 'AlertRule', targetId: rule.id });
    return { json: { id: rule.id, deleted: true }, text: `Alert rule "${rule.name}" (id ${rule.id}) deleted.` };
  },
};

const deviceFields = (d: {
  id: string;
  name: string;
  role: string | null;
  site: string | null;
  platform: string | null;
  managementAddress: string | null;
  createdAt: Date;
}) => ({
  id: d.id,
  name: d.name,
  role: d.role,
  site: d.site,
  platform: d.platform,
  management_address: d.managementAddress,
  created_at: d.createdAt.toISOString(),
});

const deviceList: Command = {
  name: 'device list',
  summary: "List a tenant's devices.",
  synopsis: '--tenant T [--json]',
  options: { tenant: { type: 'string' } },
  required: ['tenant'],
  async run(rt, v) {
    const { ctx } = await tenantCtx(rt, v);
    const devices = await ctx.db.device.findMany({ orderBy: { name: 'asc' } });
    return {
      json: { items: devices.map(deviceFields) },
      text: table(
        devices.map((d) => [d.id, d.name, d.site ?? '', d.role ?? '', d.platform ?? '', d.managementAddress ?? '']),
      ),
    };
  },
};

const deviceCreate: Command = {
  name: 'device create',
  summary: 'Add a device to the inventory (recorded on the timeline).',
  synopsis: '--tenant T --name N [--role R] [--site S] [--platform P] [--management-address A] [--as EMAIL] [--json]',
  options: {
    ...TENANT_OPTS,
    name: { type: 'string' },
    role: { type: 'string' },
    site: { type: 'string' },
    platform: { type: 'string' },
    'management-address': { type: 'string' },
  },
  required: ['tenant', 'name'],
  fieldOptions: {
    name: '--name',
    role: '--role',
    site: '--site',
    platform: '--platform',
    managementAddress: '--management-address',
  },
  async run(rt, v) {
    const { ctx, tenant } = await tenantCtx(rt, v);
    const device = await createDevice(ctx, {
      name: str(v, 'name'),
      role: opt(v, 'role') ?? null,
      site: opt(v, 'site') ?? null,
      platform: opt(v, 'platform') ?? null,
      managementAddress: opt(v, 'management-address') ?? null,
    });
    await audit(ctx, { action: 'createDevice', targetType: 'Device', targetId: device.id });
    return {
      json: deviceFields(device),
      text: `Device "${device.name}" (id ${device.id}) created in tenant "${tenant.name}".`,
    };
  },
};

const webhookList: Command = {
  name: 'webhook list',
  summary: "List a tenant's inbound webhooks (with their URLs) and outbound webhooks (with their triggers).",
  synopsis: '--tenant T [--json]',
  options: { tenant: { type: 'string' } },
  required: ['tenant'],
  async run(rt, v, env) {
    const { ctx } = await tenantCtx(rt, v);
    const [inbound, outbound] = await Promise.all([
      ctx.db.inboundWebhook.findMany({ orderBy: { createdAt: 'asc' } }),
      ctx.db.outboundWebhook.findMany({ orderBy: { createdAt: 'asc' } }),
    ]);
    const topics = (triggers: unknown) =>
      (triggers as Array<{ on: TriggerOn }>).map((t) => TRIGGER_TOPICS[t.on] ?? t.on);
    return {
      json: {
        inbound: inbound.map((w) => ({
          id: w.id,
          name: w.name,
          slug: w.slug,
          kind: w.kind,
          url: inboundWebhookUrl(rt, w, env.OPS_SERVER_URL),
        })),
        outbound: outbound.map((w) => ({
          id: w.id,
          name: w.name,
          url: w.url,
          enabled: w.enabled,
          triggers: topics(w.triggers),
        })),
      },
      text: table([
        ...inbound.map((w) => [w.id, 'inbound', w.name, inboundWebhookUrl(rt, w, env.OPS_SERVER_URL)]),
        ...outbound.map((w) => [w.id, 'outbound', w.name, w.url, topics(w.triggers).join(',')]),
      ]),
    };
  },
};

const webhookCreate: Command = {
  name: 'webhook create',
  summary:
    'Create an inbound webhook (a signed URL that records events), or with --url an outbound one (signed POSTs on --on topics). The secret is shown once.',
  synopsis: '--tenant T --name N [--url URL --on alert.opened[,...] [--severity s,...]] [--as EMAIL] [--json]',
  options: {
    ...TENANT_OPTS,
    name: { type: 'string' },
    url: { type: 'string' },
    on: { type: 'string' },
    severity: { type: 'string' },
  },
  required: ['tenant', 'name'],
  fieldOptions: { name: '--name', url: '--url', triggers: '--on', on: '--on' },
  async run(rt, v, env) {
    const url = opt(v, 'url');
    if (url === undefined) {
      if (v.on !== undefined || v.severity !== undefined)
        throw new UsageError('--on and --severity are for outbound webhooks: add --url.');
      const { ctx, tenant } = await tenantCtx(rt, v);
      const { webhook, secret } = await createInboundWebhook(ctx, { name: str(v, 'name') });
      await audit(ctx, { action: 'createInboundWebhook', targetType: 'InboundWebhook', targetId: webhook.id });
      const hookUrl = inboundWebhookUrl(rt, webhook, env.OPS_SERVER_URL);
      return {
        json: { id: webhook.id, direction: 'inbound', name: webhook.name, slug: webhook.slug, url: hookUrl, secret },
        text: [
          `Inbound webhook "${webhook.name}" (id ${webhook.id}) created in tenant "${tenant.name}".`,
          `URL: ${hookUrl}`,
          `Secret (shown only this once): ${secret}`,
        ].join('\n'),
      };
    }
    const ON_OF_TOPIC = Object.fromEntries(Object.entries(TRIGGER_TOPICS).map(([on, topic]) => [topic, on])) as Record<
      string,
      TriggerOn
    >;
    const topics = (opt(v, 'on') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (topics.length === 0)
      throw new UsageError(`--on is required with --url: one or more of ${Object.values(TRIGGER_TOPICS).join(', ')}.`);
    const unknown = topics.filter((t) => !ON_OF_TOPIC[t]);
    if (unknown.length)
      throw new UsageError(
        `--on: unknown topic ${unknown.join(', ')}; use ${Object.values(TRIGGER_TOPICS).join(', ')}.`,
      );
    const sev = severities(opt(v, 'severity'), '--severity');
    const { ctx, tenant } = await tenantCtx(rt, v);
    const { webhook, secret } = await createOutboundWebhook(ctx, {
      name: str(v, 'name'),
      url,
      triggers: topics.map((t) => ({ on: ON_OF_TOPIC[t]!, ...(sev ? { severities: sev } : {}) })),
    });
    await audit(ctx, { action: 'createOutboundWebhook', targetType: 'OutboundWebhook', targetId: webhook.id });
    return {
      json: { id: webhook.id, direction: 'outbound', name: webhook.name, url: webhook.url, triggers: topics, secret },
      text: [
        `Outbound webhook "${webhook.name}" (id ${webhook.id}) to ${webhook.url} created in tenant "${tenant.name}".`,
        `Signing secret (shown only this once): ${secret}`,
      ].join('\n'),
    };
  },
};

export const dailyCommands: Command[] = [
  ruleList,
  ruleCreate,
  ruleDelete,
  deviceList,
  deviceCreate,
  webhookList,
  webhookCreate,
  ...userCommands,
];
