/**
 * Who is calling, resolved from the credential before anything else runs. The tenant comes from here
 * and nowhere else.
 */
export type CredentialKind = 'session' | 'pat' | 'ingest_key' | 'webhook' | 'system';

export interface Principal {
  tenantId: string;
  /** Null for ingest keys and inbound webhooks, which act for the tenant rather than a person. */
  userId: string | null;
  email: string | null;
  role: 'admin' | 'member' | null;
  userKind: 'human' | 'service' | null;
  credential: { kind: CredentialKind; id: string };
}

/** Cookie that carries the session JWT for browsers. */
export const SESSION_COOKIE = 'ops_session';
