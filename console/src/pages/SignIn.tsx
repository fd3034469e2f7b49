/**
 * Sign in with email and password (a session; the cookie is httpOnly), with a single sign-on provider
 * ("Sign in with …": the provider sends the browser back to the service, which sets the cookie and returns here),
 * or ask for a password reset link ("Forgot password?"): the link in the mail opens /account/password.
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

function EmailField({ email, setEmail }: { email: string; setEmail: (v: string) => void }) {
  return (
    <label className="field">
      <span className="field-label">Email</span>
      <input
        type="email"
        autoComplete="username"
        required
        maxLength={254}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
    </label>
  );
}

export function SignIn() {
  const { signIn, requestPasswordReset } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(() => new URLSearchParams(location.search).get('sso_error'));
  const [notice, setNotice] = useState<string | null>(null);
  const [forgot, setForgot] = useState(false);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(await signIn(email, password));
    setBusy(false);
  }
  async function askReset(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const r = await requestPasswordReset(email);
    setError(r.ok ? null : r.message);
    setNotice(r.ok ? r.message : null);
    setBusy(false);
  }
  if (forgot) {
    return (
      <main className="signin">
        <form className="card form" onSubmit={(e) => void askReset(e)} aria-labelledby="reset-title">
          <h1 id="reset-title">Reset your password</h1>
          <p>We mail you a link to choose a new password. It works once and expires in 1 hour.</p>
          <EmailField email={email} setEmail={setEmail} />
          <button type="submit" className="primary" disabled={busy}>
            Send reset link
          </button>
          {notice && <p role="status">{notice}</p>}
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          <button type="button" onClick={() => (setForgot(false), setNotice(null), setError(null))}>
            Back to sign in
          </button>
        </form>
      </main>
    );
  }
  return (
    <main className="signin">
      <form className="card form" onSubmit={(e) => void submit(e)} aria-labelledby="signin-title">
        <h1 id="signin-title">Operations console</h1>
        <EmailField email={email} setEmail={setEmail} />
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
        <button type="button" onClick={() => (setForgot(true), setError(null))}>
          Forgot password?
        </button>
      </form>
    </main>
  );
}
