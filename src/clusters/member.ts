/**
 * Federation, member side: joining a hub with an invite (the logic of
 * `ops cluster join --hub <url> --invite <token> --name <name>`), then, periodically, a heartbeat to
 * each hub this installation belongs to and the forwarding of new critical alerts. Calls to the hub
 * pass the outbound SSRF guard (WEBHOOK_URL_ALLOWLIST), like webhook deliveries. The cluster
 * credential is sealed with the runtime's SecretBox and never logged.
 */
import type { Runtime } from '../runtime.js';
import type { ClusterLink } from '../generated/prisma/client.js';
import { NotFound, Unauthenticated, ValidationFailed, invalid } from '../errors.js';
import { assertDeliverableUrl } from '../net/url-guard.js';
import { urlPolicyOf } from '../net/url-guard.js';
import { sendWebhookRequest } from '../deliveries/sender.js';
import { SEVERITIES } from '../events/envelope.js';
import { SERVICE_VERSION } from './version.js';
import { alertWire } from '../alerts/wire.js';

const FORWARD_BATCH = 100;

/** POSTs JSON to the hub; resolves with the status and parsed body, throws when no answer arrived. */
async function postToHub(
  rt: Runtime,
  url: string,
  body: unknown,
  credential?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `ops-service/${SERVICE_VERSION}`,
  };
  if (credential) headers.authorization = `Bearer ${credential}`;
  const r = await sendWebhookRequest({
    url,
    body: JSON.stringify(body),
    headers,
    timeoutMs: rt.config.integrations.probeTimeoutMs,
    policy: urlPolicyOf(rt),
  });
  if (r.status === null) throw new Error(`hub unreachable: ${r.error}`);
  let parsed: Record<string, unknown> = {};
  try {
    parsed = r.responseBody ? (JSON.parse(r.responseBody) as Record<string, unknown>) : {};
  } catch {
    /* not JSON: keep the status */
  }
  return { status: r.status, body: parsed };
}

function detailOf(body: Record<string, unknown>): string {
  return typeof body.detail === 'string' ? body.detail : JSON.stringify(body.detail ?? body);
}

export interface JoinInput {
  hub: string;
  invite: string;
  name: string;
  /** Which local tenant joins; optional when the installation has exactly one. */
  tenant?: string | null;
}

/** Joins the hub with an invite and stores the membership; the first heartbeat follows at once. */
export async function joinCluster(rt: Runtime, input: JoinInput): Promise<{ link: ClusterLink; clusterId: string }> {
  const name = input.name?.trim();
  if (!name || name.length > 100) throw invalid(['name'], 'must be 1 to 100 characters');
  if (!input.invite) throw invalid(['invite'], 'is required');
  const hub = (await assertDeliverableUrl(input.hub, urlPolicyOf(rt), ['hub'])).toString().replace(/\/+$/, '');
  let tenantId: string;
  if (input.tenant) {
    const t = await rt.prisma.tenant.findFirst({ where: { OR: [{ id: input.tenant }, { name: input.tenant }] } });
    if (!t) throw new NotFound(`Tenant "${input.tenant}"`);
    tenantId = t.id;
  } else {
    const all = await rt.prisma.tenant.findMany({ take: 2, select: { id: true } });
    if (all.length !== 1)
      throw invalid(
        ['tenant'],
        all.length
          ? 'this installation has several tenants; name the one that joins'
          : 'this installation has no tenant yet',
      );
    tenantId = all[0].id;
  }
  const r = await postToHub(rt, `${hub}/api/v1/clusters/join`, {
    invite: input.invite,
    name,
    url: rt.config.publicBaseUrl ?? null,
    version: SERVICE_VERSION,
  });
  if (r.status === 401) throw new Unauthenticated(`The hub refused the invite: ${detailOf(r.body)}`);
  if (r.status === 422)
    throw new ValidationFailed([{ loc: ['hub'], msg: `the hub rejected the join request: ${detailOf(r.body)}` }]);
  if (r.status !== 201 || typeof r.body.credential !== 'string' || typeof r.body.cluster_id !== 'string')
    throw new Error(`The hub answered HTTP ${r.status}: ${detailOf(r.body)}`);
  const data = {
    name,
    remoteClusterId: r.body.cluster_id,
    credentialCiphertext: rt.secretBox.seal(r.body.credential),
    lastError: null,
  };
  // Operator tooling: the root client, with the tenant chosen above.
  const link = await rt.prisma.clusterLink.upsert({
    where: { tenantId_hubUrl: { tenantId, hubUrl: hub } },
    create: { tenantId, hubUrl: hub, ...data },
    update: data,
  });
  await heartbeatLink(rt, link).catch(() => undefined);
  return { link, clusterId: r.body.cluster_id };
}

/** One heartbeat, then the critical alerts opened since the last forward. Records the outcome on the link. */
export async function heartbeatLink(rt: Runtime, link: ClusterLink): Promise<{ forwarded: number }> {
  try {
    const credential = rt.secretBox.open(link.credentialCiphertext);
    const open = await rt.prisma.alert.groupBy({
      by: ['severity'],
      where: { tenantId: link.tenantId, status: { not: 'resolved' } },
      _count: { _all: true },
    });
    const counts = Object.fromEntries(SEVERITIES.map((s) => [s, open.find((o) => o.severity === s)?._count._all ?? 0]));
    const devices = await rt.prisma.device.count({ where: { tenantId: link.tenantId } });
    const hb = await postToHub(
      rt,
      `${link.hubUrl}/api/v1/clusters/heartbeat`,
      { version: SERVICE_VERSION, open_alerts: counts, device_count: devices },
      credential,
    );
    if (hb.status !== 200) throw new Error(`heartbeat answered HTTP ${hb.status}: ${detailOf(hb.body)}`);
    let forwarded = 0;
    for (;;) {
      const alerts = await rt.prisma.alert.findMany({
        // After joining, the critical alerts still live; from then on every new one (even if it already resolved).
        where: {
          tenantId: link.tenantId,
          severity: 'critical',
          suppressed: false,
          ...(link.forwardedAlertId ? { id: { gt: link.forwardedAlertId } } : { status: { not: 'resolved' } }),
        },
        orderBy: { id: 'asc' },
        take: FORWARD_BATCH,
      });
      if (alerts.length === 0) break;
      // The hub's contract takes these fields of the one alert wire shape.
      const body = {
        alerts: alerts.map((a) => pick(alertWire(a), ['id', 'summary', 'severity', 'status', 'first_seen_at'])),
      };
      const fw = await postToHub(rt, `${link.hubUrl}/api/v1/clusters/events`, body, credential);
      if (fw.status !== 202) throw new Error(`forwarding answered HTTP ${fw.status}: ${detailOf(fw.body)}`);
      forwarded += alerts.length;
      link = await rt.prisma.clusterLink.update({
        where: { id: link.id },
        data: { forwardedAlertId: alerts[alerts.length - 1].id },
      });
      if (alerts.length < FORWARD_BATCH) break;
    }
    await rt.prisma.clusterLink.update({
      where: { id: link.id },
      data: { lastHeartbeatAt: rt.clock.now(), lastError: null },
    });
    return { forwarded };
  } catch (err) {
    const message = (err as Error).message.slice(0, 1000);
    await rt.prisma.clusterLink.update({ where: { id: link.id }, data: { lastError: message } });
    throw err;
  }
}

/** The periodic task: every membership of this installation. */
export async function heartbeatAllLinks(rt: Runtime): Promise<{ links: number; failed: number; forwarded: number }> {
  const links = await rt.prisma.clusterLink.findMany({ orderBy: { id: 'asc' } });
  let failed = 0;
  let forwarded = 0;
  for (const link of links) {
    try {
      forwarded += (await heartbeatLink(rt, link)).forwarded;
    } catch (err) {
      failed++;
      rt.logger.warn({ err: (err as Error).message, hub: link.hubUrl }, 'cluster heartbeat failed');
    }
  }
  return { links: links.length, failed, forwarded };
}

function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;
}
