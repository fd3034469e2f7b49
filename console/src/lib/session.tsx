/**
 * Who is signed in, and sign-in / sign-out. The session is the httpOnly cookie `login` sets; sign-out
 * calls `logout`, which revokes the session on the server (and clears the cookie), then drops the
 * client so nothing cached stays on screen.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Provider } from 'urql';
import { makeClient, type ConsoleClient } from './client';
import { graphql, type ResultOf } from './graphql';

export type Me = ResultOf<typeof ViewerQuery>['viewer']['user'];

const ViewerQuery = graphql(`
  query ConsoleViewer {
    viewer {
      credentialKind
      user {
        id
        email
        name
        role
        kind
        tenant {
          id
          name
        }
      }
    }
  }
`);
const LoginMutation = graphql(`
  mutation ConsoleLogin($email: String!, $password: String!) {
    login(email: $email, password: $password) {
      expiresIn
    }
  }
`);
const ResetMutation = graphql(`
  mutation ConsoleRequestPasswordReset($email: String!) {
    requestPasswordReset(email: $email)
  }
`);
const LogoutMutation = graphql(`
  mutation ConsoleLogout {
    logout
  }
`);

interface SessionState {
  me: Me | null;
  /** True until the first viewer check has answered. */
  loading: boolean;
  signIn(email: string, password: string): Promise<string | null>;
  /** "Forgot password?": the server's answer (the same for every email), or its error. */
  requestPasswordReset(email: string): Promise<{ ok: boolean; message: string }>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside <SessionProvider>');
  return s;
}

/** The signed-in user (only inside pages, which render when someone is signed in). */
export function useMe(): Me {
  const { me } = useSession();
  if (!me) throw new Error('useMe without a session');
  return me;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null>(null);
  // A session that ends elsewhere (signed out in another tab, expired) brings back the sign-in form.
  const [client, setClient] = useState<ConsoleClient>(() => makeClient(() => setMe(null)));
  const [loading, setLoading] = useState(true);

  const renew = useCallback((old: ConsoleClient) => {
    void old.ws.dispose();
    const next = makeClient(() => setMe(null));
    setClient(next);
    return next;
  }, []);

  const loadViewer = useCallback(async (c: ConsoleClient) => {
    const r = await c.urql.query(ViewerQuery, {}, { requestPolicy: 'network-only' }).toPromise();
    setMe(r.data?.viewer.user ?? null);
    setLoading(false);
  }, []);

  useEffect(() => {
    void loadViewer(client);
    // Only the first client: later ones are loaded by signIn/signOut.
  }, []);

  const value = useMemo<SessionState>(
    () => ({
      me,
      loading,
      async signIn(email, password) {
        const r = await client.urql.mutation(LoginMutation, { email, password }).toPromise();
        if (r.error) return r.error.graphQLErrors[0]?.message ?? r.error.message;
        await loadViewer(renew(client));
        return null;
      },
      async requestPasswordReset(email) {
        const r = await client.urql.mutation(ResetMutation, { email }).toPromise();
        if (r.error) return { ok: false, message: r.error.graphQLErrors[0]?.message ?? r.error.message };
        return { ok: true, message: r.data?.requestPasswordReset ?? '' };
      },
      async signOut() {
        await client.urql.mutation(LogoutMutation, {}).toPromise();
        setMe(null);
        renew(client);
      },
    }),
    [me, loading, client, renew, loadViewer],
  );

  return (
    <SessionContext.Provider value={value}>
      <Provider value={client.urql}>{children}</Provider>
    </SessionContext.Provider>
  );
}
