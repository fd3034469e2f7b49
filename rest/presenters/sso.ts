/**
 * The REST shapes of /auth/sso: a provider, the tenant's settings (OpenAPI `SsoProvider`, `SsoSettings`).
 */
import type { components } from '../../src/openapi-types.js';
import { snake } from '../shape.js';

export const SSO_PROVIDER_FIELDS = 'slug displayName';
export const SSO_SETTINGS_FIELDS = `required breakGlassUser { id email }
  provider { slug displayName discoveryUrl clientId clientSecretSet groupsClaim adminGroups memberGroups updatedAt }
  installationProvider { ${SSO_PROVIDER_FIELDS} } redirectUri`;

export function presentSsoProvider(p: Record<string, unknown>): components['schemas']['SsoProvider'] {
  return snake(p);
}

/** `data.<field>` of an operation selecting SSO_SETTINGS_FIELDS. */
export function presentSsoSettings(s: Record<string, unknown>): components['schemas']['SsoSettings'] {
  return snake(s);
}
