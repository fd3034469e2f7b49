/**
 * The OpenID Connect providers people sign in with: the installation's (OIDC_* settings, for one tenant)
 * and each tenant's own (TenantSsoProvider). A provider is found by its id (its slug) in sign-in URLs.
 * Discovery documents are cached per process for DISCOVERY_TTL_MS; a tenant's provider is reached
 * through the outbound address policy (WEBHOOK_URL_ALLOWLIST), since a tenant admin chose its URL.
 */
import * as oidc from 'openid-client';
import type { Runtime } from '../runtime.js';
import type { RoleMapping } from './roles.js';
import { policyFetch } from '../net/guarded-fetch.js';
import { urlPolicyOf } from '../net/url-guard.js';

/** A provider as sign-in uses it (the client secret opened). */
export interface SsoProvider extends RoleMapping {
  slug: string;
  displayName: string;
  /** The tenant its users belong to. */
  tenantId: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret?: string;
  /** Set for a tenant's provider: its HTTP goes through the outbound address policy. */
  tenantConfigured: boolean;
}

/** How long a discovery document is reused. */
const DISCOVERY_TTL_MS = 10 * 60_000;

interface DiscoveryCache {
  byUrl: Map<string, { at: number; metadata: Promise<oidc.ServerMetadata> }>;
}

declare module '../runtime.js' {
  interface RuntimeParts {
    /** Discovery documents of the OpenID providers, by discovery URL. */
    ssoDiscovery: DiscoveryCache;
  }
}

/** The runtime's discovery cache (src/server/runtime-parts.ts). */
export function createSsoDiscovery(): DiscoveryCache {
  return { byUrl: new Map() };
}

/** True for a loopback host, where plain http is accepted (a provider on the same machine, tests). */
function isLoopback(u: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) || u.hostname.startsWith('127.');
}

/** The HTTP settings of a provider: the address policy for a tenant's, plain http only on loopback. */
function httpOptions(rt: Runtime, p: Pick<SsoProvider, 'discoveryUrl' | 'tenantConfigured'>) {
  const fetchImpl = p.tenantConfigured ? policyFetch(urlPolicyOf(rt)) : fetch;
  const insecure = isLoopback(new URL(p.discoveryUrl));
  return { fetchImpl, insecure };
}

/** Applies a provider's HTTP settings to a configuration. */
function applyHttp(config: oidc.Configuration, opts: ReturnType<typeof httpOptions>): void {
  config[oidc.customFetch] = opts.fetchImpl as oidc.CustomFetch;
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the documented switch for http issuers
  if (opts.insecure) oidc.allowInsecureRequests(config);
}

/** The provider's discovery document (cached); throws what discovery threw (unreachable, wrong issuer). */
async function serverMetadata(rt: Runtime, p: SsoProvider): Promise<oidc.ServerMetadata> {
  const cache = rt.parts.ssoDiscovery.byUrl;
  const now = rt.clock.now().getTime();
  const hit = cache.get(p.discoveryUrl);
  if (hit && now - hit.at < DISCOVERY_TTL_MS) return hit.metadata;
  const opts = httpOptions(rt, p);
  const metadata = oidc
    .discovery(new URL(p.discoveryUrl), p.clientId, undefined, undefined, {
      [oidc.customFetch]: opts.fetchImpl as oidc.CustomFetch,
      execute: opts.insecure ? [oidc.allowInsecureRequests] : [],
    })
    .then((c) => c.serverMetadata());
  cache.set(p.discoveryUrl, { at: now, metadata });
  // A failed discovery is not kept: the next sign-in tries again.
  metadata.catch(() => cache.delete(p.discoveryUrl));
  return metadata;
}

/**
 * The client configuration of a provider, with the service's clock (rt.clock) as the "now" that ID
 * token times (`iat`, `exp`) are checked against.
 */
export async function providerConfiguration(rt: Runtime, p: SsoProvider): Promise<oidc.Configuration> {
  const metadata = await serverMetadata(rt, p);
  const skewSeconds = Math.round((rt.clock.now().getTime() - Date.now()) / 1000);
  const config = new oidc.Configuration(
    metadata,
    p.clientId,
    { ...(p.clientSecret ? { client_secret: p.clientSecret } : {}), [oidc.clockSkew]: skewSeconds },
    p.clientSecret ? oidc.ClientSecretBasic(p.clientSecret) : oidc.None(),
  );
  applyHttp(config, httpOptions(rt, p));
  return config;
}

/** Checks that a discovery URL answers with a usable document (a tenant admin saving their provider). */
export async function checkDiscovery(rt: Runtime, p: SsoProvider): Promise<void> {
  rt.parts.ssoDiscovery.byUrl.delete(p.discoveryUrl);
  await serverMetadata(rt, p);
}

type ProviderRow = {
  slug: string;
  displayName: string;
  tenantId: string;
  discoveryUrl: string;
  clientId: string;
  clientSecretSealed: string | null;
  groupsClaim: string;
  adminGroups: string[];
  memberGroups: string[];
};

/** A tenant's provider row as sign-in uses it. */
export function fromRow(rt: Runtime, row: ProviderRow): SsoProvider {
  return {
    slug: row.slug,
    displayName: row.displayName,
    tenantId: row.tenantId,
    discoveryUrl: row.discoveryUrl,
    clientId: row.clientId,
    clientSecret: row.clientSecretSealed ? rt.secretBox.open(row.clientSecretSealed) : undefined,
    groupsClaim: row.groupsClaim,
    adminGroups: row.adminGroups,
    memberGroups: row.memberGroups,
    tenantConfigured: true,
  };
}

/** The installation's provider, when OIDC_* are set and OIDC_TENANT names an existing tenant. */
export async function installationProvider(rt: Runtime): Promise<SsoProvider | null> {
  const sso = rt.config.sso;
  if (!sso) return null;
  const tenant = await rt.prisma.tenant.findUnique({ where: { name: sso.tenantName }, select: { id: true } });
  if (!tenant) {
    rt.logger.warn({ tenant: sso.tenantName }, 'OIDC_TENANT names no tenant; its single sign-on is unavailable');
    return null;
  }
  const { tenantName: _name, ...rest } = sso;
  return { ...rest, tenantId: tenant.id, tenantConfigured: false };
}

/** The provider with this id, or null. */
export async function findProvider(rt: Runtime, slug: string): Promise<SsoProvider | null> {
  if (rt.config.sso?.slug === slug) return installationProvider(rt);
  const row = await rt.prisma.tenantSsoProvider.findUnique({ where: { slug } });
  return row ? fromRow(rt, row) : null;
}

/** Every provider people can sign in with (id and name only): the console's "Sign in with …" buttons. */
export async function listProviders(rt: Runtime): Promise<Array<{ slug: string; displayName: string }>> {
  const installation = await installationProvider(rt);
  const rows = await rt.prisma.tenantSsoProvider.findMany({
    select: { slug: true, displayName: true },
    orderBy: { displayName: 'asc' },
    take: 100,
  });
  return [
    ...(installation ? [{ slug: installation.slug, displayName: installation.displayName }] : []),
    ...rows.filter((r) => r.slug !== installation?.slug),
  ];
}

/** True when some provider signs people in to this tenant (a precondition of requiring SSO). */
export async function tenantHasProvider(rt: Runtime, tenantId: string): Promise<boolean> {
  if ((await installationProvider(rt))?.tenantId === tenantId) return true;
  return (await rt.prisma.tenantSsoProvider.count({ where: { tenantId } })) > 0;
}
