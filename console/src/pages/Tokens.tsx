/** Personal access tokens: mint (cleartext shown once), list with last use, revoke, reactivate, rotate. */
import { useState } from 'react';
import { useMutation } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { CopyButton } from '../components/CopyButton';
import { useLiveQuery } from '../components/useLive';
import { when } from '../lib/format';
import { graphql } from '../lib/graphql';

const TokensQuery = graphql(`
  query ConsoleTokens {
    tokens {
      id
      name
      description
      tokenPrefix
      status
      createdAt
      expiresAt
      lastUsedAt
      revokedAt
      graceUntil
    }
  }
`);
const TokenChangedSubscription = graphql(`
  subscription ConsoleTokenChanged {
    tokenChanged {
      id
      change
    }
  }
`);
const CreateToken = graphql(`
  mutation ConsoleCreateToken($input: CreateTokenInput!) {
    createToken(input: $input) {
      token
      accessToken {
        id
        name
        tokenPrefix
        status
        expiresAt
      }
    }
  }
`);
const RevokeToken = graphql(`
  mutation ConsoleRevokeToken($id: ID!) {
    revokeToken(id: $id) {
      id
      status
      revokedAt
    }
  }
`);
const ReactivateToken = graphql(`
  mutation ConsoleReactivateToken($id: ID!) {
    reactivateToken(id: $id) {
      id
      status
      revokedAt
    }
  }
`);
const RotateToken = graphql(`
  mutation ConsoleRotateToken($id: ID!) {
    rotateToken(id: $id) {
      token
      accessToken {
        id
        name
        tokenPrefix
        status
        expiresAt
      }
    }
  }
`);

const EXPIRY = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'never' },
] as const;

export function Tokens() {
  const { result } = useLiveQuery({ query: TokensQuery, variables: {}, subscription: TokenChangedSubscription });
  const [, createToken] = useMutation(CreateToken);
  const [, revoke] = useMutation(RevokeToken);
  const [, reactivate] = useMutation(ReactivateToken);
  const [, rotate] = useMutation(RotateToken);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [expiry, setExpiry] = useState<(typeof EXPIRY)[number]['value']>('90');
  const [minted, setMinted] = useState<{ name: string; token: string } | null>(null);

  return (
    <Page title="Tokens" error={result.error} loading={result.fetching && !result.data}>
      {minted && (
        <Card title="New token">
          <p>
            The token <strong>{minted.name}</strong> is shown only this once. Copy it now.
          </p>
          <p className="secret">
            <code aria-label="New token value">{minted.token}</code>{' '}
            <CopyButton text={minted.token} label="Copy token" />
          </p>
          <button type="button" className="plain" onClick={() => setMinted(null)}>
            Done
          </button>
        </Card>
      )}
      <MutationForm
        title="Mint a token"
        submitLabel="Mint token"
        onSubmit={async () => {
          const r = await createToken({
            input: {
              name,
              description: description || undefined,
              expiresInDays: expiry === 'never' ? null : Number(expiry),
            },
          });
          if (r.data) {
            setMinted({ name: r.data.createToken.accessToken.name, token: r.data.createToken.token });
            setName('');
            setDescription('');
          }
          return r;
        }}
      >
        <TextField label="Name" value={name} onChange={setName} required />
        <TextField label="Description" value={description} onChange={setDescription} />
        <SelectField label="Expires" value={expiry} onChange={setExpiry} options={EXPIRY} />
      </MutationForm>
      <DataTable
        caption="Your tokens"
        rows={result.data?.tokens}
        rowKey={(t) => t.id}
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'Prefix', cell: (t) => <code>{t.tokenPrefix}</code>, wide: true },
          { header: 'Status', cell: (t) => <Badge value={t.status} /> },
          { header: 'Last used', cell: (t) => when(t.lastUsedAt) },
          { header: 'Expires', cell: (t) => (t.expiresAt ? when(t.expiresAt) : 'never'), wide: true },
          { header: 'Created', cell: (t) => when(t.createdAt), wide: true },
          {
            header: 'Actions',
            cell: (t) => (
              <div className="row-actions" aria-label={`Actions for ${t.name}`} role="group">
                {t.status === 'REVOKED' ? (
                  <ActionButton run={() => reactivate({ id: t.id })}>Reactivate</ActionButton>
                ) : (
                  <ActionButton
                    variant="danger"
                    confirm={`Revoke ${t.name}? Scripts using it stop working.`}
                    run={() => revoke({ id: t.id })}
                    deniedBecause={t.status === 'EXPIRED' ? 'Expired.' : null}
                  >
                    Revoke
                  </ActionButton>
                )}
                <ActionButton
                  run={async () => {
                    const r = await rotate({ id: t.id });
                    if (r.data)
                      setMinted({ name: r.data.rotateToken.accessToken.name, token: r.data.rotateToken.token });
                    return r;
                  }}
                  deniedBecause={t.status !== 'ACTIVE' ? 'Only an active token can be rotated.' : null}
                >
                  Rotate
                </ActionButton>
              </div>
            ),
          },
        ]}
      />
    </Page>
  );
}
