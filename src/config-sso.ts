/**
 * Single sign-on settings of the installation (OIDC_*): one OpenID Connect provider whose users sign in to
 * one tenant. Tenants may also configure their own provider (src/sso/settings.ts); both work side by side.
 */
import { ConfigError, url } from './config-env.js';

export interface InstallationSsoConfig {
  /** The provider's id in sign-in URLs (OIDC_PROVIDER_ID, default `sso`). */
  slug: string;
  /** "Sign in with <displayName>" (OIDC_DISPLAY_NAME, default `SSO`). */
  displayName: string;
  /** OIDC_DISCOVERY_URL: the issuer or its `/.well-known/openid-configuration`. */
  discoveryUrl: string;
  clientId: string;
  clientSecret?: string;
  /** OIDC_TENANT: the name of the tenant its users belong to. */
  tenantName: string;
  groupsClaim: string;
  adminGroups: string[];
  memberGroups: string[];
}

/** A comma-separated list, trimmed, without empty entries. */
export function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Reads OIDC_*; undefined when OIDC_DISCOVERY_URL is unset. */
export function loadInstallationSso(env: NodeJS.ProcessEnv): InstallationSsoConfig | undefined {
  const discoveryUrl = url(env, 'OIDC_DISCOVERY_URL', ['https:', 'http:']);
  if (!discoveryUrl) return undefined;
  const need = (name: string): string => {
    const v = env[name]?.trim();
    if (!v) throw new ConfigError(`${name} must be set when OIDC_DISCOVERY_URL is.`);
    return v;
  };
  const slug = env.OIDC_PROVIDER_ID?.trim() || 'sso';
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug))
    throw new ConfigError(`OIDC_PROVIDER_ID must be lowercase letters, digits and dashes, got "${slug}".`);
  return {
    slug,
    displayName: env.OIDC_DISPLAY_NAME?.trim() || 'SSO',
    discoveryUrl,
    clientId: need('OIDC_CLIENT_ID'),
    clientSecret: env.OIDC_CLIENT_SECRET || undefined,
    tenantName: need('OIDC_TENANT'),
    groupsClaim: env.OIDC_GROUPS_CLAIM?.trim() || 'groups',
    adminGroups: commaList(env.OIDC_ADMIN_GROUPS),
    memberGroups: commaList(env.OIDC_MEMBER_GROUPS),
  };
}
