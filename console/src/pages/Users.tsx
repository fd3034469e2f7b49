/**
 * Admin: the tenant's users; create people or service users with a role; change a role (the tenant keeps
 * a human admin: the server's 409 LAST_ADMIN is shown); a person is invited by email and chooses their own
 * password; force a person's password reset (their sessions and tokens end, a link goes to their email; no
 * admin ever sees a password); mint a service user's token.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { CopyButton } from '../components/CopyButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { lower, when } from '../lib/format';
import { graphql } from '../lib/graphql';

const UsersQuery = graphql(`
  query ConsoleUsers {
    users {
      id
      email
      name
      role
      kind
      credentialOrigin
      createdAt
    }
  }
`);
const CreateUser = graphql(`
  mutation ConsoleCreateUser($input: CreateUserInput!) {
    createUser(input: $input) {
      id
      email
      name
      role
      kind
      credentialOrigin
      createdAt
    }
  }
`);
const SetRole = graphql(`
  mutation ConsoleSetUserRole($userId: ID!, $role: Role!) {
    setUserRole(userId: $userId, role: $role) {
      id
      role
    }
  }
`);
const ResetPassword = graphql(`
  mutation ConsoleResetUserPassword($userId: ID!) {
    resetUserPassword(userId: $userId) {
      user {
        id
        email
      }
      linkSentTo
      linkExpiresAt
      sessionsEnded
      tokensRevoked
    }
  }
`);
const MintFor = graphql(`
  mutation ConsoleMintServiceToken($input: CreateTokenInput!) {
    createToken(input: $input) {
      token
      accessToken {
        id
        name
      }
    }
  }
`);

export function Users() {
  const me = useMe();
  const denied = adminOnly(me);
  const [result, refetch] = useQuery({ query: UsersQuery });
  const [, create] = useMutation(CreateUser);
  const [, mint] = useMutation(MintFor);
  const [, setRole] = useMutation(SetRole);
  const [, reset] = useMutation(ResetPassword);
  const [resetDone, setResetDone] = useState<{
    linkSentTo: string;
    linkExpiresAt: string;
    sessionsEnded: number;
    tokensRevoked: number;
  } | null>(null);
  const blank = {
    email: '',
    name: '',
    role: 'MEMBER' as 'MEMBER' | 'ADMIN',
    kind: 'HUMAN' as 'HUMAN' | 'SERVICE',
  };
  const [form, setForm] = useState(blank);
  const [minted, setMinted] = useState<{ email: string; token: string } | null>(null);
  return (
    <Page title="Users" error={result.error} loading={result.fetching && !result.data}>
      {minted && (
        <Card title="New token">
          <p>
            Token for <strong>{minted.email}</strong>, shown this once:
          </p>
          <p className="secret">
            <code aria-label="New token value">{minted.token}</code>{' '}
            <CopyButton text={minted.token} label="Copy token" />
          </p>
        </Card>
      )}
      {resetDone && (
        <Card title="Password reset">
          <p role="status">
            Reset link sent to <strong>{resetDone.linkSentTo}</strong> (works once, until{' '}
            {when(resetDone.linkExpiresAt)}
            ); {resetDone.sessionsEnded} session(s) and {resetDone.tokensRevoked} token(s) ended.
          </p>
        </Card>
      )}
      <DataTable
        caption="Users"
        rows={result.data?.users}
        rowKey={(u) => u.id}
        columns={[
          { header: 'Email', cell: (u) => u.email },
          { header: 'Name', cell: (u) => u.name ?? '—', wide: true },
          { header: 'Role', cell: (u) => <Badge value={u.role} /> },
          { header: 'Kind', cell: (u) => lower(u.kind) },
          {
            header: 'Credential',
            cell: (u) => (u.kind === 'HUMAN' ? lower(u.credentialOrigin).replace('_', ' ') : '—'),
          },
          {
            header: 'Change',
            cell: (u) => (
              <>
                <ActionButton
                  deniedBecause={denied}
                  confirm={`Make ${u.email} ${u.role === 'ADMIN' ? 'a member' : 'an admin'}?`}
                  run={() => setRole({ userId: u.id, role: u.role === 'ADMIN' ? 'MEMBER' : 'ADMIN' })}
                  onDone={() => refetch({ requestPolicy: 'network-only' })}
                  label={u.role === 'ADMIN' ? `Make ${u.email} member` : `Make ${u.email} admin`}
                >
                  {u.role === 'ADMIN' ? 'Make member' : 'Make admin'}
                </ActionButton>
                {u.kind === 'HUMAN' && (
                  <ActionButton
                    deniedBecause={denied}
                    label={`Reset password of ${u.email}`}
                    confirm={`Reset the password of ${u.email}? Their password, sessions and tokens stop working now; a link to choose a new password goes to their email.`}
                    run={async () => {
                      const r = await reset({ userId: u.id });
                      if (r.data) setResetDone(r.data.resetUserPassword);
                      return r;
                    }}
                  >
                    Reset password
                  </ActionButton>
                )}
              </>
            ),
          },
          { header: 'Created', cell: (u) => when(u.createdAt), wide: true },
          {
            header: 'Token',
            cell: (u) =>
              u.kind === 'SERVICE' ? (
                <ActionButton
                  deniedBecause={denied}
                  run={async () => {
                    const r = await mint({
                      input: {
                        name: `${u.email.split('@')[0]}-${new Date().toISOString().slice(0, 10)}`,
                        userId: u.id,
                        expiresInDays: 90,
                      },
                    });
                    if (r.data) setMinted({ email: u.email, token: r.data.createToken.token });
                    return r;
                  }}
                >
                  Mint 90-day token
                </ActionButton>
              ) : (
                <small className="hint">people mint their own</small>
              ),
          },
        ]}
      />
      <MutationForm
        title="New user"
        submitLabel="Create user"
        deniedBecause={denied}
        onSubmit={async () => {
          const input = {
            email: form.email,
            role: form.role,
            kind: form.kind,
            ...(form.name ? { name: form.name } : {}),
          };
          const r = await create({ input });
          if (!r.error) setForm(blank);
          return r;
        }}
        onDone={() => refetch({ requestPolicy: 'network-only' })}
      >
        <TextField
          label="User email"
          type="email"
          value={form.email}
          onChange={(email) => setForm({ ...form, email })}
          required
        />
        <TextField label="User name" value={form.name} onChange={(name) => setForm({ ...form, name })} />
        <SelectField
          label="User kind"
          value={form.kind}
          onChange={(kind) => setForm({ ...form, kind })}
          options={[
            { value: 'HUMAN', label: 'person' },
            { value: 'SERVICE', label: 'service (tokens only)' },
          ]}
        />
        <SelectField
          label="Role"
          value={form.role}
          onChange={(role) => setForm({ ...form, role })}
          options={['MEMBER', 'ADMIN']}
        />
        {form.kind === 'HUMAN' && (
          <small className="hint">The person gets an email with a link to choose their own password (72 h).</small>
        )}
      </MutationForm>
    </Page>
  );
}
