/**
 * One alert: its facts, Acknowledge / Snooze (with a duration) / Resolve, its events, rule, device and
 * timeline of actions, the assistant's triage with evidence and proposed actions (Approve / Reject),
 * and the alert's shared chat. Live: alertChanged for this alert refreshes it.
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { Link } from 'wouter';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { humanOnly } from '../lib/permissions';
import { lower, when } from '../lib/format';
import { graphql } from '../lib/graphql';

const AlertQuery = graphql(`
  query ConsoleAlert($id: ID!) {
    alert(id: $id) {
      id summary status severity source count dedupKey suppressed firstSeenAt lastSeenAt snoozedUntil acknowledgedAt resolvedAt allowedActions
      assignee { email }
      rule { id name kind typeGlob source }
      device { id name site role }
      maintenanceWindow { id name }
      events(limit: 20) { id type severity summary source receivedAt }
      timeline { id action fromStatus toStatus note createdAt actor { email } }
      latestTriage {
        id summary provider createdAt
        checks { name status message interesting evidence { kind id label } }
        likelyCauses { cause confidence score relations { kind detail } evidence { kind id label } }
      }
      assistantActions { id tool args argsHash rationale risk status reason result expiresAt decidedBy { email } }
    }
    alertConversation(alertId: $id) {
      id
      messages { id role content createdAt author { email } }
    }
  }
`);
const AlertChangedOne = graphql(`
  subscription ConsoleAlertChanged($filter: AlertChangedFilter) { alertChanged(filter: $filter) { change alert { id status } } }
`);
const Acknowledge = graphql(`
  mutation ConsoleAcknowledgeAlert($id: ID!) { acknowledgeAlert(id: $id) { id status allowedActions acknowledgedAt assignee { email } } }
`);
const Snooze = graphql(`
  mutation ConsoleSnoozeAlert($id: ID!, $input: SnoozeAlertInput!) { snoozeAlert(id: $id, input: $input) { id status allowedActions snoozedUntil } }
`);
const Resolve = graphql(`
  mutation ConsoleResolveAlert($id: ID!) { resolveAlert(id: $id) { id status allowedActions resolvedAt } }
`);
const Triage = graphql(`
  mutation ConsoleTriageAlert($alertId: ID!) { triageAlert(alertId: $alertId) { id summary } }
`);
const ApproveAction = graphql(`
  mutation ConsoleApproveAssistantAction($actionId: ID!, $alertId: ID!, $argsHash: String) {
    approveAssistantAction(actionId: $actionId, alertId: $alertId, argsHash: $argsHash) { id status result }
  }
`);
const RejectAction = graphql(`
  mutation ConsoleRejectAssistantAction($actionId: ID!, $alertId: ID!, $reason: String) {
    rejectAssistantAction(actionId: $actionId, alertId: $alertId, reason: $reason) { id status reason }
  }
`);
const SendChat = graphql(`
  mutation ConsoleSendAlertChat($alertId: ID!, $message: String!) {
    sendAlertChatMessage(alertId: $alertId, message: $message) { reply { id content } conversation { id } }
  }
`);

const SNOOZE_FOR = [
  { value: '15m', label: '15 minutes' },
  { value: '1h', label: '1 hour' },
  { value: '4h', label: '4 hours' },
  { value: '1d', label: '1 day' },
  { value: '7d', label: '7 days' },
] as const;

export function AlertDetail({ params }: { params: { id: string } }) {
  const me = useMe();
  const { result, refetch } = useLiveQuery({ query: AlertQuery, variables: { id: params.id }, subscription: AlertChangedOne, subscriptionVariables: { filter: { alertId: params.id } } });
  const [, acknowledge] = useMutation(Acknowledge);
  const [, snooze] = useMutation(Snooze);
  const [, resolve] = useMutation(Resolve);
  const [, triage] = useMutation(Triage);
  const [, approve] = useMutation(ApproveAction);
  const [, reject] = useMutation(RejectAction);
  const [, sendChat] = useMutation(SendChat);
  const [snoozeFor, setSnoozeFor] = useState<(typeof SNOOZE_FOR)[number]['value']>('1h');
  const [rejectReason, setRejectReason] = useState('');
  const [message, setMessage] = useState('');
  const a = result.data?.alert;
  const notNow = (action: 'ACKNOWLEDGE' | 'SNOOZE' | 'RESOLVE') => (a && !a.allowedActions.includes(action) ? `Not possible while the alert is ${lower(a.status)}.` : null);
  const refresh = () => refetch();

  return (
    <Page title={a ? a.summary : 'Alert'} error={result.error} loading={result.fetching && !a} actions={<Link href="/alerts">All alerts</Link>}>
      {a && (
        <>
          <Card title="State">
            <dl className="facts">
              <dt>Status</dt>
              <dd>
                <Badge value={a.status} /> {a.snoozedUntil && a.status === 'SNOOZED' ? `until ${when(a.snoozedUntil)}` : ''}
              </dd>
              <dt>Severity</dt>
              <dd>
                <Badge value={a.severity} />
              </dd>
              <dt>Source</dt>
              <dd>{a.source ?? '—'}</dd>
              <dt>Seen</dt>
              <dd>
                {a.count} × · first {when(a.firstSeenAt)} · last {when(a.lastSeenAt)}
              </dd>
              <dt>Assignee</dt>
              <dd>{a.assignee?.email ?? '—'}</dd>
              <dt>Rule</dt>
              <dd>{a.rule ? `${a.rule.name} (${lower(a.rule.kind)}${a.rule.typeGlob ? `, ${a.rule.typeGlob}` : ''})` : '—'}</dd>
              <dt>Device</dt>
              <dd>{a.device ? <Link href={`/devices/${a.device.id}`}>{a.device.name}</Link> : '—'}</dd>
              <dt>Maintenance</dt>
              <dd>{a.suppressed ? `suppressed by ${a.maintenanceWindow?.name ?? 'a window'}` : 'no'}</dd>
              <dt>Dedup key</dt>
              <dd>
                <code>{a.dedupKey}</code>
              </dd>
            </dl>
            <div className="row-actions" role="group" aria-label="Alert actions">
              <ActionButton variant="primary" run={() => acknowledge({ id: a.id })} deniedBecause={notNow('ACKNOWLEDGE')}>
                Acknowledge
              </ActionButton>
              <span className="snooze">
                <SelectField label="Snooze for" value={snoozeFor} onChange={setSnoozeFor} options={SNOOZE_FOR} />
                <ActionButton run={() => snooze({ id: a.id, input: { duration: snoozeFor } })} deniedBecause={notNow('SNOOZE')}>
                  Snooze
                </ActionButton>
              </span>
              <ActionButton run={() => resolve({ id: a.id })} deniedBecause={notNow('RESOLVE')}>
                Resolve
              </ActionButton>
            </div>
          </Card>

          <Card title="Triage">
            <ActionButton run={() => triage({ alertId: a.id })} onDone={refresh}>
              {a.latestTriage ? 'Triage again' : 'Triage'}
            </ActionButton>
            {a.latestTriage && (
              <>
                <p>
                  {a.latestTriage.summary} <small className="hint">({a.latestTriage.provider}, {when(a.latestTriage.createdAt)})</small>
                </p>
                <h3>Likely causes</h3>
                <ul>
                  {a.latestTriage.likelyCauses.map((c, i) => (
                    <li key={i}>
                      {c.cause} <Badge value={c.confidence} />{c.score != null && <small className="hint"> score {c.score}</small>} <Evidence items={c.evidence} />
                    </li>
                  ))}
                </ul>
                <DataTable
                  caption="Checks"
                  rows={a.latestTriage.checks}
                  rowKey={(c) => c.name}
                  columns={[
                    { header: 'Check', cell: (c) => c.name },
                    { header: 'Status', cell: (c) => <Badge value={c.status} /> },
                    { header: 'Finding', cell: (c) => (c.interesting ? <strong>{c.message}</strong> : c.message) },
                    { header: 'Evidence', cell: (c) => <Evidence items={c.evidence} />, wide: true },
                  ]}
                />
              </>
            )}
            <h3>Proposed actions</h3>
            <TextField label="Reason for rejecting" value={rejectReason} onChange={setRejectReason} />
            <DataTable
              caption="Proposed actions"
              rows={a.assistantActions}
              rowKey={(x) => x.id}
              empty="No actions proposed."
              columns={[
                { header: 'Action', cell: (x) => <code>{lower(x.tool)}</code> },
                { header: 'Arguments', cell: (x) => <code>{JSON.stringify(x.args)}</code>, wide: true },
                { header: 'Why', cell: (x) => x.rationale },
                { header: 'Risk', cell: (x) => <Badge value={x.risk} /> },
                { header: 'Status', cell: (x) => <>{<Badge value={x.status} />} {x.reason ?? ''} {x.decidedBy ? `by ${x.decidedBy.email}` : ''}</> },
                {
                  header: 'Decide',
                  cell: (x) => {
                    const decided = x.status !== 'PROPOSED' ? `Already ${lower(x.status)}.` : null;
                    return (
                      <div className="row-actions" role="group" aria-label={`Decide ${lower(x.tool)}`}>
                        <ActionButton variant="primary" run={() => approve({ actionId: x.id, alertId: a.id, argsHash: x.argsHash })} deniedBecause={decided ?? humanOnly(me)} onDone={refresh}>
                          Approve
                        </ActionButton>
                        <ActionButton run={() => reject({ actionId: x.id, alertId: a.id, reason: rejectReason || null })} deniedBecause={decided} onDone={refresh}>
                          Reject
                        </ActionButton>
                      </div>
                    );
                  },
                },
              ]}
            />
          </Card>

          <div className="grid2">
            <Card title="Events">
              <DataTable
                caption="Alert events"
                rows={a.events}
                rowKey={(e) => e.id}
                columns={[
                  { header: 'Received', cell: (e) => when(e.receivedAt) },
                  { header: 'Type', cell: (e) => <code>{e.type}</code> },
                  { header: 'Summary', cell: (e) => e.summary ?? '' },
                ]}
              />
            </Card>
            <Card title="Timeline of actions">
              <DataTable
                caption="Alert timeline"
                rows={a.timeline}
                rowKey={(t) => t.id}
                columns={[
                  { header: 'When', cell: (t) => when(t.createdAt) },
                  { header: 'Action', cell: (t) => t.action },
                  { header: 'By', cell: (t) => t.actor?.email ?? 'system' },
                  { header: 'Note', cell: (t) => t.note ?? '', wide: true },
                ]}
              />
            </Card>
          </div>

          <Card title="Chat">
            <ol className="chat" aria-label="Alert chat">
              {result.data?.alertConversation?.messages.map((m) => (
                <li key={m.id} className={`chat-${m.role.toLowerCase()}`}>
                  <small className="hint">
                    {m.author?.email ?? 'assistant'} · {when(m.createdAt)}
                  </small>
                  <p>{m.content}</p>
                </li>
              ))}
            </ol>
            <MutationForm
              submitLabel="Send"
              title="Ask about this alert"
              onSubmit={async () => {
                const r = await sendChat({ alertId: a.id, message });
                if (!r.error) setMessage('');
                return r;
              }}
              onDone={refresh}
            >
              <TextField label="Message" value={message} onChange={setMessage} required />
            </MutationForm>
          </Card>
        </>
      )}
    </Page>
  );
}

/** Where the console opens a record of each evidence kind (null: it has no page; the full id is shown). */
function evidenceHref(kind: string, id: string): string | null {
  switch (lower(kind)) {
    case 'event': return `/events/${id}`;
    case 'alert': return `/alerts/${id}`;
    case 'device': return `/devices/${id}`;
    case 'proposal': return `/proposals#${id}`;
    case 'gpu': return '/gpu';
    case 'integration': return '/integrations';
    case 'rule': return '/rules';
    default: return null;
  }
}

/** Evidence as links named by what they are, with the full id (never shortened). */
function Evidence({ items }: { items: ReadonlyArray<{ kind: string; id: string; label: string }> }) {
  if (!items.length) return null;
  return (
    <ul className="evidence" aria-label="Evidence">
      {items.map((e) => {
        const href = evidenceHref(e.kind, e.id);
        return (
          <li key={`${e.kind}:${e.id}`}>
            <small className="hint">{lower(e.kind).replace('_', ' ')}:</small>{' '}
            {href ? <Link href={href} title={e.id}>{e.label}</Link> : <span title={e.id}>{e.label}</span>} <code>{e.id}</code>
          </li>
        );
      })}
    </ul>
  );
}

