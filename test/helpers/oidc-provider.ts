/**
 * A real OpenID Provider for tests: the `oidc-provider` package (a certified implementation) on
 * 127.0.0.1, with one confidential client, accounts the test defines (their `groups` claim included) and
 * its interaction API answering the login and consent prompts for the account the test chose.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export interface TestAccount {
  email: string;
  name?: string;
  groups: string[];
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccount>;
  /** The account the next login prompt signs in. */
  signInAs(accountId: string): void;
  close(): Promise<void>;
}

/** Starts a provider on `port` (0: any) whose client may redirect to `redirectUri`. */
export async function startOidcProvider(opts: {
  port: number;
  redirectUri: string;
  clientSecret: string;
  idTokenTtlSeconds?: number;
}): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestAccount>();
  let nextAccount = '';
  const clientId = 'ops-service';
  const clientSecret = opts.clientSecret;
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(opts.port, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: true,
          name: account.name,
          groups: account.groups,
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    ttl: { IdToken: opts.idTokenTtlSeconds ?? 300 },
    pkce: { required: () => true },
  };
  const provider = new Provider(issuer, config);
  const callback = provider.callback();
  server.on('request', (req, res) => {
    const m = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!m) return void callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: nextAccount } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const grant = new provider.Grant({ accountId: details.session!.accountId, clientId });
      grant.addOIDCScope('openid email profile');
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: true },
      );
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signInAs: (id) => {
      nextAccount = id;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** A browser's cookie jar, enough for these flows: cookies by name, per host (ports share them, as in browsers). */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();
  store(url: string, headers: Headers): void {
    const host = new URL(url).hostname;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.byHost.set(host, jar);
  }
  header(url: string): string {
    const jar = this.byHost.get(new URL(url).hostname);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }
  get(url: string, name: string): string | undefined {
    return this.byHost.get(new URL(url).hostname)?.get(name);
  }
}

/** GET with the jar, following redirects until `stopAt` matches a Location (returned) or a page answers. */
export async function followUntil(jar: CookieJar, start: string, stopAt: (url: string) => boolean): Promise<string> {
  let url = start;
  for (let hop = 0; hop < 20; hop++) {
    if (stopAt(url)) return url;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) } });
    jar.store(url, res.headers);
    const location = res.headers.get('location');
    if (!location)
      throw new Error(`${url} answered ${res.status} without a redirect: ${(await res.text()).slice(0, 500)}`);
    await res.body?.cancel();
    url = new URL(location, url).href;
  }
  throw new Error(`too many redirects from ${start}`);
}
