/**
 * /auth/sso: single sign-on with OpenID Connect. Starting a sign-in and the settings are GraphQL
 * operations; the callback is a handler: the provider sends the browser there, and it answers with a
 * session cookie and a redirect to the console.
 */
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import type { RouteEntry } from '../route-types.js';
import { arrayOf } from '../presenters/lists.js';
import { SSO_PROVIDER_FIELDS, SSO_SETTINGS_FIELDS, presentSsoProvider, presentSsoSettings } from '../presenters/sso.js';
import { completeSsoSignIn, SSO_FLOW_COOKIE } from '../../src/sso/flow.js';
import { SESSION_COOKIE } from '../../src/principal.js';
import { DomainError } from '../../src/errors.js';

export const ssoRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/auth/sso/providers',
    auth: 'public',
    operation: `query SsoProviders { ssoProviders { ${SSO_PROVIDER_FIELDS} } }`,
    respond: (data) => arrayOf(data.ssoProviders, presentSsoProvider),
  },
  {
    method: 'post',
    path: '/auth/sso/providers/:slug/start',
    auth: 'public',
    operation: 'mutation StartSsoSignIn($slug: String!) { startSsoSignIn(slug: $slug) { authorizationUrl } }',
    variables: (req) => ({ slug: req.params.slug }),
    respond: (data) => ({ authorization_url: data.startSsoSignIn.authorizationUrl }),
  },
  {
    method: 'get',
    path: '/auth/sso/callback',
    // Whatever session cookie the browser still holds (an expired one) plays no part here.
    auth: () => Promise.resolve(null),
    handler: async (req, res) => {
      const binding = parseCookie(req.headers.cookie ?? '')[SSO_FLOW_COOKIE];
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
      const secure = req.protocol === 'https';
      let session;
      try {
        session = await completeSsoSignIn(req.ctx.rt, query, binding);
      } catch (err) {
        // A browser goes back to the sign-in page, which shows why; other clients get the error body.
        if (!(err instanceof DomainError) || req.accepts(['json', 'html']) !== 'html') throw err;
        return res.redirect(303, `/?sso_error=${encodeURIComponent(err.message)}`);
      }
      res.append('Set-Cookie', [
        serializeCookie(SESSION_COOKIE, session.accessToken, {
          httpOnly: true,
          sameSite: 'lax',
          path: '/',
          maxAge: session.expiresIn,
          secure,
        }),
        serializeCookie(SSO_FLOW_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 0, secure }),
      ]);
      res.redirect(303, '/');
    },
  },
  {
    method: 'get',
    path: '/auth/sso/settings',
    operation: `query SsoSettings { ssoSettings { ${SSO_SETTINGS_FIELDS} } }`,
    respond: (data) => presentSsoSettings(data.ssoSettings),
  },
  {
    method: 'put',
    path: '/auth/sso/provider',
    operation: `mutation SetSsoProvider($input: SetSsoProviderInput!) { setSsoProvider(input: $input) { ${SSO_SETTINGS_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    respond: (data) => presentSsoSettings(data.setSsoProvider),
  },
  {
    method: 'delete',
    path: '/auth/sso/provider',
    operation: 'mutation ClearSsoProvider { clearSsoProvider }',
    status: 204,
  },
  {
    method: 'put',
    path: '/auth/sso/policy',
    operation: `mutation SetSsoPolicy($input: SetSsoPolicyInput!) { setSsoPolicy(input: $input) { ${SSO_SETTINGS_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    respond: (data) => presentSsoSettings(data.setSsoPolicy),
  },
];
