/**
 * Sign in with email and password, or with a single sign-on provider ("Sign in with …"): the provider
 * sends the browser back to the service, which sets the httpOnly session cookie and returns here.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useSession } from '../lib/session';
import { graphql } from '../lib/graphql';

const ProvidersQuery = graphql(`
  query ConsoleSsoProviders {
    ssoProviders {
      slug
      displayName
    }
  }
`);
const StartSsoMutation = graphql(`
  mutation ConsoleStartSso($slug: String!) {
    startSsoSignIn(slug: $slug) {
      authorizationUrl
    }
  }
`);

/** "Sign in with <name>" for each provider; a failed single sign-on comes back as `?sso_error=`. */
function SsoButtons({ onError }: { onError: (message: string) => void }) {
  const [{ data }] = useQuery({ query: ProvidersQuery });
  const [{ fetching }, start] = useMutation(StartSsoMutation);
  const providers = data?.ssoProviders ?? [];
  if (!providers.length) return null;
  async function go(slug: string) {
    const r = await start({ slug });
    if (r.error) return onError(r.error.graphQLErrors[0]?.message ?? r.error.message);
    if (r.data) window.location.assign(r.data.startSsoSignIn.authorizationUrl);
  }
  return (
    <div className="sso">
      {providers.map((p) => (
        <button key={p.slug} type="button" disabled={fetching} onClick={() => void go(p.slug)}>
          Sign in with {p.displayName}
        </button>
      ))}
    </div>
  );
}

export function SignIn() {
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(() => new URLSearchParams(location.search).get('sso_error'));
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(await signIn(email, password));
    setBusy(false);
  }
  return (
    <main className="signin">
      <form className="card form" onSubmit={(e) => void submit(e)} aria-labelledby="signin-title">
        <h1 id="signin-title">Operations console</h1>
        <label className="field">
          <span className="field-label">Email</span>
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">Password</span>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
        <SsoButtons onError={setError} />
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
