/**
 * Outbound webhooks: list (with each trigger's filters), create with triggers and their severity and label
 * filters (secret shown once), enable/disable, delete; details at /webhooks/:id.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link } from 'wouter';
import { ActionButton } from '../components/ActionButton';
import { CopyButton } from '../components/CopyButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, TextField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';
import { graphql } from '../lib/graphql';
import {
  TriggerEditor,
  TriggerFields,
  describeTrigger,
  newDraft,
  readTriggers,
  triggerInputs,
} from './webhooks/triggers';

const OutboundQuery = graphql(
  `
    query ConsoleOutboundWebhooks {
      outboundWebhooks {
        id
        name
        url
        enabled
        lastFailureAt
        lastFailureError
        triggers {
          ...ConsoleWebhookTrigger
        }
      }
    }
  `,
  [TriggerFields],
);
const CreateOutbound = graphql(`
  mutation ConsoleCreateOutboundWebhook($input: CreateOutboundWebhookInput!) {
    createOutboundWebhook(input: $input) {
      id
      secret
      webhook {
        id
        name
      }
    }
  }
`);
const SetEnabled = graphql(`
  mutation ConsoleUpdateOutboundWebhook($id: ID!, $input: UpdateOutboundWebhookInput!) {
    updateOutboundWebhook(id: $id, input: $input) {
      id
      enabled
    }
  }
`);
const DeleteOutbound = graphql(`
  mutation ConsoleDeleteOutboundWebhook($id: ID!) {
    deleteOutboundWebhook(id: $id)
  }
`);

export function OutboundWebhooks() {
  const me = useMe();
  const denied = adminOnly(me);
  const [result, refetch] = useQuery({ query: OutboundQuery });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, create] = useMutation(CreateOutbound);
  const [, setEnabled] = useMutation(SetEnabled);
  const [, remove] = useMutation(DeleteOutbound);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [triggers, setTriggers] = useState(() => [newDraft('ALERT_OPENED')]);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Page title="Outbound webhooks" error={result.error} loading={result.fetching && !result.data}>
      {secret && (
        <Card title="Signing secret">
          <p>Shown this once (admins can reveal it again on the webhook's page).</p>
          <p className="secret">
            <code aria-label="Signing secret value">{secret}</code> <CopyButton text={secret} />
          </p>
          <button type="button" className="plain" onClick={() => setSecret(null)}>
            Done
          </button>
        </Card>
      )}
      <DataTable
        caption="Outbound webhooks"
        rows={result.data?.outboundWebhooks}
        rowKey={(w) => w.id}
        columns={[
          { header: 'Name', cell: (w) => <Link href={`/webhooks/${w.id}`}>{w.name}</Link> },
          { header: 'URL', cell: (w) => <code>{w.url}</code>, wide: true },
          {
            header: 'On',
            cell: (w) => readTriggers(w.triggers).map(describeTrigger).join(', '),
          },
          { header: 'Enabled', cell: (w) => (w.enabled ? 'yes' : 'no') },
          {
            header: 'Last failure',
            cell: (w) => (w.lastFailureAt ? `${when(w.lastFailureAt)}: ${w.lastFailureError ?? ''}` : '—'),
            wide: true,
          },
          {
            header: 'Actions',
            cell: (w) => (
              <div className="row-actions" role="group" aria-label={`Actions for ${w.name}`}>
                <ActionButton
                  deniedBecause={denied}
                  run={() => setEnabled({ id: w.id, input: { enabled: !w.enabled } })}
                >
                  {w.enabled ? 'Disable' : 'Enable'}
                </ActionButton>
                <ActionButton
                  variant="danger"
                  deniedBecause={denied}
                  confirm={`Delete ${w.name} and its delivery history?`}
                  run={() => remove({ id: w.id })}
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
        title="New outbound webhook"
        submitLabel="Create webhook"
        deniedBecause={denied}
        onSubmit={async () => {
          const r = await create({ input: { name, url, triggers: triggerInputs(triggers) } });
          if (r.data) {
            setSecret(r.data.createOutboundWebhook.secret);
            setName('');
            setUrl('');
          }
          return r;
        }}
        onDone={reload}
      >
        <TextField label="Webhook name" value={name} onChange={setName} required />
        <TextField label="Receiver URL" value={url} onChange={setUrl} type="url" required placeholder="https://…" />
        <TriggerEditor drafts={triggers} onChange={setTriggers} />
      </MutationForm>
    </Page>
  );
}
