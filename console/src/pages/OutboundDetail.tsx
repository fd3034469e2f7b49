/**
 * One outbound webhook: its secret (reveal, rotate) and the delivery history, live (deliveryChanged):
 * each delivery with its body and attempts (request headers, response status and body, timing), and
 * Redeliver.
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { Link } from 'wouter';
import { ActionButton } from '../components/ActionButton';
import { CopyButton } from '../components/CopyButton';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { json, lower, when } from '../lib/format';
import { graphql } from '../lib/graphql';

const WebhookQuery = graphql(`
  query ConsoleWebhook($id: ID!, $status: DeliveryStatus) {
    webhook(id: $id) {
      id name url enabled previousSecretValidUntil
      triggers { on typeGlob }
      deliveries(first: 50, status: $status) {
        id topic status attemptCount createdAt deliveredAt failedAt nextAttemptAt lastError body
        attempts { id number createdAt durationMs responseStatus responseBody error requestHeaders }
      }
    }
  }
`);
const DeliveryChanged = graphql(`
  subscription ConsoleDeliveryChanged($webhookId: ID) { deliveryChanged(webhookId: $webhookId) { id status attemptCount } }
`);
const Redeliver = graphql(`
  mutation ConsoleRedeliver($deliveryId: ID!) { redeliver(deliveryId: $deliveryId) { id status attemptCount } }
`);
const RevealSecret = graphql(`
  mutation ConsoleRevealOutboundSecret($id: ID!) { revealOutboundWebhookSecret(id: $id) { webhookId secret previousSecretValidUntil } }
`);
const RotateSecret = graphql(`
  mutation ConsoleRotateOutboundSecret($id: ID!) { rotateWebhookSecret(id: $id) { webhookId secret previousSecretValidUntil } }
`);

const STATUSES = ['', 'PENDING', 'RETRYING', 'DELIVERED', 'FAILED'] as const;

export function OutboundDetail({ params }: { params: { id: string } }) {
  const me = useMe();
  const denied = adminOnly(me);
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('');
  const { result } = useLiveQuery({ query: WebhookQuery, variables: { id: params.id, status: status || null }, subscription: DeliveryChanged, subscriptionVariables: { webhookId: params.id } });
  const [, redeliver] = useMutation(Redeliver);
  const [, reveal] = useMutation(RevealSecret);
  const [, rotate] = useMutation(RotateSecret);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const w = result.data?.webhook;
  const shownDelivery = w?.deliveries.find((d) => d.id === open);
  return (
    <Page title={w ? w.name : 'Outbound webhook'} error={result.error} loading={result.fetching && !w} actions={<Link href="/webhooks">All outbound webhooks</Link>}>
      {w && (
        <>
          <Card title="Receiver">
            <dl className="facts">
              <dt>URL</dt>
              <dd>
                <code>{w.url}</code>
              </dd>
              <dt>Triggers</dt>
              <dd>{w.triggers.map((t) => lower(t.on) + (t.typeGlob ? ` ${t.typeGlob}` : '')).join(', ')}</dd>
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
              <ActionButton deniedBecause={denied} run={async () => { const r = await reveal({ id: w.id }); if (r.data) setSecret(r.data.revealOutboundWebhookSecret.secret); return r; }}>
                Reveal secret
              </ActionButton>
              <ActionButton deniedBecause={denied} confirm="Issue a new signing secret? For 24 hours deliveries carry both signatures." run={async () => { const r = await rotate({ id: w.id }); if (r.data) setSecret(r.data.rotateWebhookSecret.secret); return r; }}>
                Rotate secret
              </ActionButton>
            </div>
          </Card>
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
              { header: 'Next attempt', cell: (d) => when(d.nextAttemptAt), wide: true },
              {
                header: 'Actions',
                cell: (d) => (
                  <div className="row-actions">
                    <button type="button" className="plain" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>
                      {open === d.id ? 'Hide' : 'Details'}
                    </button>
                    <ActionButton deniedBecause={denied ?? (d.status === 'PENDING' || d.status === 'RETRYING' ? 'Still being delivered.' : null)} run={() => redeliver({ deliveryId: d.id })}>
                      Redeliver
                    </ActionButton>
                  </div>
                ),
              },
            ]}
          />
          {shownDelivery && (
            <Card title={`Delivery ${shownDelivery.id}`}>
              <h3>Request body</h3>
              <pre>{shownDelivery.body}</pre>
              {shownDelivery.attempts.map((a) => (
                <section key={a.id} aria-label={`Attempt ${a.number}`}>
                  <h3>
                    Attempt {a.number} · {when(a.createdAt)} · {a.durationMs} ms · {a.responseStatus ?? 'no response'} {a.error ?? ''}
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
          )}
        </>
      )}
    </Page>
  );
}
