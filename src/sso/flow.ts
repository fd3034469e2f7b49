/**
 * Sign-in with an OpenID Connect provider: the authorization code flow with PKCE (S256), `state` and
 * `nonce`, checked by openid-client (issuer, audience, signature, `iat`/`exp` against the service's
 * clock, the RFC 9207 `iss` parameter). The flow's secrets live in Redis for FLOW_TTL_SECONDS under the
 * hash of its `state`, read once; the browser that started it holds a random binding in an httpOnly
 * cookie, so a callback URL handed to someone else's browser signs nobody in (login CSRF).
 */
import crypto from 'node:crypto';
import * as oidc from 'openid-client';
import type { Runtime } from '../runtime.js';
import { NotFound, Unauthenticated } from '../errors.js';
import { constantTimeEqual, tokenHash } from '../secrets.js';
import { openSession, type LoginResult } from '../auth/sessions.js';
import { findProvider, providerConfiguration, type SsoProvider } from './providers.js';
import { provisionSsoUser } from './provision.js';

/** The cookie that binds a sign-in to the browser that started it. */
export const SSO_FLOW_COOKIE = 'ops_sso_flow';
/** How long a started sign-in may take at the provider. */
export const FLOW_TTL_SECONDS = 600;
/** Where the provider sends the browser back, under the service's base URL. */
export const SSO_CALLBACK_PATH = '/api/v1/auth/sso/callback';

interface FlowRecord {
  provider: string;
  verifier: string;
  nonce: string;
  redirectUri: string;
  bindingHash: string;
}

const flowKey = (rt: Runtime, state: string) => `${rt.config.redisPrefix}:sso:flow:${tokenHash(state)}`;

/** The service's base URL as browsers reach it: PUBLIC_BASE_URL, else the address it listens on. */
export function serviceBaseUrl(rt: Runtime): string {
  if (rt.config.publicBaseUrl) return rt.config.publicBaseUrl.replace(/\/+$/, '');
  const host = ['0.0.0.0', '::'].includes(rt.config.host) ? '127.0.0.1' : rt.config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${rt.config.port}`;
}

/** The redirect URI to register at the provider. */
export function ssoRedirectUri(rt: Runtime): string {
  return `${serviceBaseUrl(rt)}${SSO_CALLBACK_PATH}`;
}

/**
 * Turns what openid-client or the provider refused into a 401 that says why: openid-client wraps the
 * precise check (`unexpected "iss" … value`, a JWT time claim) in its `cause`, named here too.
 */
function refused(err: unknown): Unauthenticated {
  const reasons: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && depth < 4; depth++) {
    if (e instanceof Error) {
      if (!reasons.includes(e.message)) reasons.push(e.message);
      e = e.cause;
    } else {
      if (typeof e === 'string') reasons.push(e);
      const claim = (e as { claim?: unknown } | null)?.claim;
      if (typeof claim === 'string') reasons.push(`the ID token's "${claim}" claim`);
      break;
    }
  }
  return new Unauthenticated(`Single sign-on failed: ${reasons.join(': ')}`, 'SSO_FAILED');
}

export interface StartedSignIn {
  authorizationUrl: string;
  /** The value of SSO_FLOW_COOKIE to set on the browser. */
  binding: string;
}

/** Starts a sign-in with provider `slug`: the URL to send the browser to, and the binding cookie's value. */
export async function startSsoSignIn(rt: Runtime, slug: string): Promise<StartedSignIn> {
  const provider = await findProvider(rt, slug);
  if (!provider) throw new NotFound(`Single sign-on provider "${slug}"`);
  let config: oidc.Configuration;
  try {
    config = await providerConfiguration(rt, provider);
  } catch (err) {
    throw refused(err);
  }
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const binding = crypto.randomBytes(24).toString('base64url');
  const redirectUri = ssoRedirectUri(rt);
  const record: FlowRecord = { provider: slug, verifier, nonce, redirectUri, bindingHash: tokenHash(binding) };
  await rt.redis.set(flowKey(rt, state), JSON.stringify(record), 'EX', FLOW_TTL_SECONDS);
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { authorizationUrl: url.href, binding };
}

/** The claims of a completed code exchange: the ID token's, completed by the userinfo endpoint's. */
async function claimsOf(
  config: oidc.Configuration,
  tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>,
  provider: SsoProvider,
): Promise<Record<string, unknown>> {
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('the provider returned no ID token');
  const claims: Record<string, unknown> = { ...idClaims };
  // Many providers put email and groups only in userinfo (OIDC Core 5.4 with an access token).
  if ((claims.email === undefined || claims[provider.groupsClaim] === undefined) && tokens.access_token) {
    const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    for (const [k, v] of Object.entries(info)) if (claims[k] === undefined) claims[k] = v;
  }
  return claims;
}

/**
 * Completes a sign-in at the callback: `query` is the callback's query string, `binding` the flow cookie.
 * Returns a session for the user, created in the provider's tenant on first sign-in with the role their
 * groups map to. Throws Unauthenticated (SSO_FAILED) for an unknown, used, expired or foreign `state`, a
 * provider error, or a token that does not verify; Forbidden when the groups grant no role.
 */
export async function completeSsoSignIn(rt: Runtime, query: string, binding: string | undefined): Promise<LoginResult> {
  const params = new URLSearchParams(query);
  const state = params.get('state');
  if (!state) throw refused('the callback carries no state');
  const raw = await rt.redis.getdel(flowKey(rt, state));
  if (!raw) throw refused('unknown or expired state; start the sign-in again');
  const flow = JSON.parse(raw) as FlowRecord;
  if (!binding || !constantTimeEqual(tokenHash(binding), flow.bindingHash))
    throw refused('this browser did not start the sign-in (its flow cookie is missing or different)');
  if (params.get('error'))
    throw refused(`the provider answered ${params.get('error')}: ${params.get('error_description') ?? ''}`.trim());
  const provider = await findProvider(rt, flow.provider);
  if (!provider) throw refused(`provider "${flow.provider}" was removed during the sign-in`);
  let claims: Record<string, unknown>;
  try {
    const config = await providerConfiguration(rt, provider);
    const currentUrl = new URL(flow.redirectUri);
    currentUrl.search = params.toString();
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: flow.verifier,
      expectedState: state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    claims = await claimsOf(config, tokens, provider);
  } catch (err) {
    throw refused(err);
  }
  const user = await provisionSsoUser(rt, provider, claims);
  return openSession(rt, user);
}
