/**
 * One outbound webhook: edit its name, URL and triggers with their severity and label filters, delete it; its secret (reveal, rotate: shown
 * with a copy button) and the delivery history, live (deliveryChanged):
 * each delivery with its body and attempts (request headers, response status and body, timing), and
 * Redeliver.
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { Link, useLocation } from 'wouter';
import { ActionButton } from '../components/ActionButton';
import { CopyButton } from '../components/CopyButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { json, when } from '../lib/format';
import { graphql, readFragment, type FragmentOf } from '../lib/graphql';
import {
  TriggerEditor,
  TriggerFields,
  describeTrigger,
  draftsOf,
  readTriggers,
  triggerInputs,
  type TriggerDraft,
} from './webhooks/triggers';

/** One delivery opened: its body and each attempt (request headers, response status and body, timing). */
const DeliveryDetailFields = graphql(`
  fragment ConsoleDeliveryDetail on Delivery {
    id
    body
    attempts {
      id
      number
      createdAt
      durationMs
      responseStatus
      responseBody
      error
      requestHeaders
    }
  }
`);

const WebhookQuery = graphql(
  `
    query ConsoleWebhook($id: ID!, $status: DeliveryStatus) {
      webhook: outboundWebhook(id: $id) {
        id
        name
        url
        enabled
        previousSecretValidUntil
        triggers {
          ...ConsoleWebhookTrigger
        }
        deliveries(first: 50, status: $status) {
          id
          topic
          status
          attemptCount
          createdAt
          deliveredAt
          failedAt
          nextAttemptAt
          lastError
          ...ConsoleDeliveryDetail
        }
      }
    }
  `,
  [DeliveryDetailFields, TriggerFields],
);
const DeliveryChanged = graphql(`
  subscription ConsoleDeliveryChanged($webhookId: ID) {
    deliveryChanged(webhookId: $webhookId) {
      id
      status
      attemptCount
    }
  }
`);
const Redeliver = graphql(`
  mutation ConsoleRedeliver($deliveryId: ID!) {
    redeliver(deliveryId: $deliveryId) {
      id
      status
      attemptCount
    }
  }
`);
const RevealSecret = graphql(`
  mutation ConsoleRevealOutboundSecret($id: ID!) {
    revealOutboundWebhookSecret(id: $id) {
      webhookId
      secret
      previousSecretValidUntil
    }
  }
`);
const RotateSecret = graphql(`
  mutation ConsoleRotateOutboundSecret($id: ID!) {
    rotateWebhookSecret(id: $id) {
      webhookId
      secret
      previousSecretValidUntil
    }
  }
`);

const UpdateWebhook = graphql(
  `
    mutation ConsoleEditOutboundWebhook($id: ID!, $input: UpdateOutboundWebhookInput!) {
      updateOutboundWebhook(id: $id, input: $input) {
        id
        name
        url
        enabled
        triggers {
          ...ConsoleWebhookTrigger
        }
      }
    }
  `,
  [TriggerFields],
);
const DeleteWebhook = graphql(`
  mutation ConsoleDeleteOutboundWebhookDetail($id: ID!) {
    deleteOutboundWebhook(id: $id)
  }
`);

function DeliveryDetail({ delivery }: { delivery: FragmentOf<typeof DeliveryDetailFields> }) {
  const shownDelivery = readFragment(DeliveryDetailFields, delivery);
  return (
    <Card title={`Delivery ${shownDelivery.id}`}>
      <h3>Request body</h3>
      <pre>{shownDelivery.body}</pre>
      {shownDelivery.attempts.map((a) => (
        <section key={a.id} aria-label={`Attempt ${a.number}`}>
          <h3>
            Attempt {a.number} · {when(a.createdAt)} · {a.durationMs} ms · {a.responseStatus ?? 'no response'}{' '}
            {a.error ?? ''}
          </h3>
          <div className="grid2">
            <div>
              <small className="hint">Request headers</small>
              <pre>{json(a.requestHeaders)}</pre>
            </div>
            <div>
              <small className="hint">Response body (first 4 KiB)</small>
              <pre>{a.responseBody ?? ''}</pre>
            </div>
          </div>
        </section>
      ))}
    </Card>
  );
}

const STATUSES = ['', 'PENDING', 'RETRYING', 'DELIVERED', 'FAILED'] as const;

export function OutboundWebhookDetail({ params }: { params: { id: string } }) {
  const me = useMe();
  const denied = adminOnly(me);
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('');
  const { result } = useLiveQuery({
    query: WebhookQuery,
    variables: { id: params.id, status: status || null },
    subscription: DeliveryChanged,
    subscriptionVariables: { webhookId: params.id },
  });
  const [, redeliver] = useMutation(Redeliver);
  const [, reveal] = useMutation(RevealSecret);
  const [, rotate] = useMutation(RotateSecret);
  const [, update] = useMutation(UpdateWebhook);
  const [, remove] = useMutation(DeleteWebhook);
  const [, navigate] = useLocation();
  const [secret, setSecret] = useState<string | null>(null);
  const [edit, setEdit] = useState<{ name: string; url: string; triggers: TriggerDraft[] } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const w = result.data?.webhook;
  const triggers = w ? readTriggers(w.triggers) : [];
  const shownDelivery = w?.deliveries.find((d) => d.id === open);
  return (
    <Page
      title={w ? w.name : 'Outbound webhook'}
      error={result.error}
      loading={result.fetching && !w}
      actions={<Link href="/webhooks">All outbound webhooks</Link>}
    >
      {w && (
        <>
          <Card title="Receiver">
            <dl className="facts">
              <dt>URL</dt>
              <dd>
                <code>{w.url}</code>
              </dd>
              <dt>Triggers</dt>
              <dd>
                <ul className="trigger-list" aria-label="Triggers of this webhook">
                  {triggers.map((t) => (
                    <li key={t.on}>{describeTrigger(t)}</li>
                  ))}
                </ul>
              </dd>
              <dt>Enabled</dt>
              <dd>{w.enabled ? 'yes' : 'no'}</dd>
              <dt>Previous secret</dt>
              <dd>{w.previousSecretValidUntil ? `also signs until ${when(w.previousSecretValidUntil)}` : '—'}</dd>
            </dl>
            {secret && (
              <p className="secret">
                <code aria-label="Signing secret value">{secret}</code> <CopyButton text={secret} />
              </p>
            )}
            <div className="row-actions">
              <ActionButton
                deniedBecause={denied}
                run={async () => {
                  const r = await reveal({ id: w.id });
                  if (r.data) setSecret(r.data.revealOutboundWebhookSecret.secret);
                  return r;
                }}
              >
                Reveal secret
              </ActionButton>
              <ActionButton
                deniedBecause={denied}
                confirm="Issue a new signing secret? For 24 hours deliveries carry both signatures."
                run={async () => {
                  const r = await rotate({ id: w.id });
                  if (r.data) setSecret(r.data.rotateWebhookSecret.secret);
                  return r;
                }}
              >
                Rotate secret
              </ActionButton>
              <button
                type="button"
                className="plain"
                aria-expanded={!!edit}
                onClick={() =>
                  setEdit(
                    edit
                      ? null
                      : {
                          name: w.name,
                          url: w.url,
                          triggers: draftsOf(triggers),
                        },
                  )
                }
              >
                Edit webhook
              </button>
              <ActionButton
                variant="danger"
                deniedBecause={denied}
                confirm={`Delete ${w.name} and its delivery history?`}
                run={() => remove({ id: w.id })}
                onDone={() => navigate('/webhooks')}
              >
                Delete webhook
              </ActionButton>
            </div>
          </Card>
          {edit && (
            <MutationForm
              title="Edit webhook"
              submitLabel="Save webhook"
              deniedBecause={denied}
              onSubmit={() =>
                update({ id: w.id, input: { name: edit.name, url: edit.url, triggers: triggerInputs(edit.triggers) } })
              }
              onDone={() => setEdit(null)}
            >
              <TextField
                label="Webhook name"
                value={edit.name}
                onChange={(name) => setEdit({ ...edit, name })}
                required
              />
              <TextField
                label="Receiver URL"
                value={edit.url}
                onChange={(url) => setEdit({ ...edit, url })}
                type="url"
                required
              />
              <TriggerEditor drafts={edit.triggers} onChange={(t) => setEdit({ ...edit, triggers: t })} />
            </MutationForm>
          )}
          <div className="filters">
            <SelectField label="Delivery status" value={status} onChange={setStatus} options={STATUSES} />
          </div>
          <DataTable
            caption="Deliveries"
            rows={w.deliveries}
            rowKey={(d) => d.id}
            empty="No deliveries yet."
            columns={[
              { header: 'Created', cell: (d) => when(d.createdAt) },
              { header: 'Topic', cell: (d) => <code>{d.topic}</code> },
              { header: 'Status', cell: (d) => <Badge value={d.status} /> },
              { header: 'Attempts', cell: (d) => d.attemptCount },
              { header: 'Last error', cell: (d) => d.lastError ?? '', wide: true },
              { header: 'Next attempt', cell: (d) => when(d.nextAttemptAt), collapse: true },
              {
                header: 'Actions',
                cell: (d) => (
                  <div className="row-actions">
                    <button
                      type="button"
                      className="plain"
                      aria-expanded={open === d.id}
                      onClick={() => setOpen(open === d.id ? null : d.id)}
                    >
                      {open === d.id ? 'Hide' : 'Details'}
                    </button>
                    <ActionButton
                      deniedBecause={
                        denied ?? (d.status === 'PENDING' || d.status === 'RETRYING' ? 'Still being delivered.' : null)
                      }
                      run={() => redeliver({ deliveryId: d.id })}
                    >
                      Redeliver
                    </ActionButton>
                  </div>
                ),
              },
            ]}
          />
          {shownDelivery && <DeliveryDetail delivery={shownDelivery} />}
        </>
      )}
    </Page>
  );
}
