/** Inbound webhooks (URL, secret reveal and rotation, replay protection) and the tenant's ingest key (rotation). */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { CopyButton } from '../components/CopyButton';
import { DataTable } from '../components/DataTable';
import { ErrorView } from '../components/ErrorView';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { lower, when } from '../lib/format';
import { graphql } from '../lib/graphql';
import { ReplayProtection } from './inbound/ReplayProtection';

const InboundQuery = graphql(`
  query ConsoleInboundWebhooks {
    inboundWebhooks {
      id
      name
      kind
      slug
      url
      createdAt
      previousSecretValidUntil
      requireStandardWebhooks
      rejectRepeatedSignature
    }
  }
`);
const IngestKeysQuery = graphql(`
  query ConsoleIngestKeys {
    ingestKeys {
      id
      keyPrefix
      createdAt
      validUntil
    }
  }
`);
const CreateInbound = graphql(`
  mutation ConsoleCreateInboundWebhook($input: CreateInboundWebhookInput!) {
    createInboundWebhook(input: $input) {
      id
      name
      kind
      slug
      url
      createdAt
      secret
    }
  }
`);
const RevealInbound = graphql(`
  mutation ConsoleRevealInboundSecret($id: ID!) {
    revealInboundWebhookSecret(id: $id)
  }
`);
const RotateInbound = graphql(`
  mutation ConsoleRotateInboundSecret($id: ID!) {
    rotateInboundWebhookSecret(id: $id) {
      id
      secret
      previousSecretValidUntil
    }
  }
`);
const DeleteInbound = graphql(`
  mutation ConsoleDeleteInboundWebhook($id: ID!) {
    deleteInboundWebhook(id: $id)
  }
`);
const RotateIngestKey = graphql(`
  mutation ConsoleRotateIngestKey {
    rotateIngestKey {
      key
      previousValidUntil
      ingestKey {
        id
        keyPrefix
      }
    }
  }
`);

export function InboundWebhooks() {
  const me = useMe();
  const denied = adminOnly(me);
  const [hooks, refetch] = useQuery({ query: InboundQuery });
  const [keys, refetchKeys] = useQuery({ query: IngestKeysQuery, pause: !!denied });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, create] = useMutation(CreateInbound);
  const [, reveal] = useMutation(RevealInbound);
  const [, rotate] = useMutation(RotateInbound);
  const [, remove] = useMutation(DeleteInbound);
  const [, rotateKey] = useMutation(RotateIngestKey);
  const [shown, setShown] = useState<{ label: string; value: string; note?: string } | null>(null);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'EVENTS' | 'SOT'>('EVENTS');

  return (
    <Page title="Inbound webhooks" error={hooks.error} loading={hooks.fetching && !hooks.data}>
      {shown && (
        <Card title={shown.label}>
          <p className="secret">
            <code aria-label={`${shown.label} value`}>{shown.value}</code> <CopyButton text={shown.value} />
          </p>
          {shown.note && <p className="hint">{shown.note}</p>}
          <button type="button" className="plain" onClick={() => setShown(null)}>
            Hide
          </button>
        </Card>
      )}
      <DataTable
        caption="Inbound webhooks"
        rows={hooks.data?.inboundWebhooks}
        rowKey={(h) => h.id}
        empty="No inbound webhooks. Senders sign their POSTs with the secret (X-Service-Signature)."
        columns={[
          { header: 'Name', cell: (h) => h.name },
          { header: 'Kind', cell: (h) => lower(h.kind) },
          {
            header: 'URL',
            cell: (h) => (
              <>
                <code>{h.url}</code> <CopyButton text={h.url} label="Copy URL" />
              </>
            ),
          },
          { header: 'Previous secret valid until', cell: (h) => when(h.previousSecretValidUntil), wide: true },
          {
            header: 'Replay protection',
            cell: (h) => <ReplayProtection hook={h} deniedBecause={denied} onDone={reload} />,
          },
          {
            header: 'Secret',
            cell: (h) => (
              <div className="row-actions" role="group" aria-label={`Secret actions for ${h.name}`}>
                <ActionButton
                  deniedBecause={denied}
                  run={async () => {
                    const r = await reveal({ id: h.id });
                    if (r.data) setShown({ label: `Secret of ${h.name}`, value: r.data.revealInboundWebhookSecret });
                    return r;
                  }}
                >
                  Reveal secret
                </ActionButton>
                <ActionButton
                  deniedBecause={denied}
                  confirm="Issue a new secret? The old one keeps verifying for 24 hours."
                  run={async () => {
                    const r = await rotate({ id: h.id });
                    if (r.data)
                      setShown({
                        label: `New secret of ${h.name}`,
                        value: r.data.rotateInboundWebhookSecret.secret,
                        note: `The previous secret verifies until ${when(r.data.rotateInboundWebhookSecret.previousSecretValidUntil)}.`,
                      });
                    return r;
                  }}
                  onDone={reload}
                >
                  Rotate secret
                </ActionButton>
                <ActionButton
                  variant="danger"
                  deniedBecause={denied}
                  confirm={`Delete ${h.name}?`}
                  run={() => remove({ id: h.id })}
                  onDone={reload}
                >
                  Delete
                </ActionButton>
              </div>
            ),
          },
        ]}
      />
      <MutationForm
        title="New inbound webhook"
        submitLabel="Create webhook"
        deniedBecause={denied}
        onSubmit={async () => {
          const r = await create({ input: { name, kind } });
          if (r.data) {
            setShown({
              label: `Secret of ${r.data.createInboundWebhook.name}`,
              value: r.data.createInboundWebhook.secret,
              note: `POST signed events to ${r.data.createInboundWebhook.url}`,
            });
            setName('');
          }
          return r;
        }}
        onDone={reload}
      >
        <TextField label="Webhook name" value={name} onChange={setName} required />
        <SelectField
          label="Kind"
          value={kind}
          onChange={setKind}
          options={[
            { value: 'EVENTS', label: 'events (timeline)' },
            { value: 'SOT', label: 'source of truth (NetBox)' },
          ]}
        />
      </MutationForm>

      <Card title="Ingest key">
        <p className="hint">Scripts send events to POST /api/v1/events with the header X-Service-Key.</p>
        {denied ? (
          <p className="reason">{denied}</p>
        ) : (
          <>
            <ErrorView error={keys.error} />
            <DataTable
              caption="Ingest keys"
              rows={keys.data?.ingestKeys}
              rowKey={(k) => k.id}
              columns={[
                { header: 'Prefix', cell: (k) => <code>{k.keyPrefix}</code> },
                { header: 'Created', cell: (k) => when(k.createdAt) },
                { header: 'Works until', cell: (k) => (k.validUntil ? when(k.validUntil) : 'no end') },
              ]}
            />
          </>
        )}
        <ActionButton
          deniedBecause={denied}
          confirm="Mint a new ingest key? Older keys keep working for 24 hours."
          run={async () => {
            const r = await rotateKey({});
            if (r.data)
              setShown({
                label: 'New ingest key',
                value: r.data.rotateIngestKey.key,
                note: `Shown this once. Older keys work until ${when(r.data.rotateIngestKey.previousValidUntil)}.`,
              });
            return r;
          }}
          onDone={() => refetchKeys({ requestPolicy: 'network-only' })}
        >
          Rotate ingest key
        </ActionButton>
      </Card>
    </Page>
  );
}
