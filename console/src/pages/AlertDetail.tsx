/**
 * One alert: its facts, labels and annotations (the runbook as a link), Acknowledge / Snooze (with a
 * duration) / Resolve, its events, rule, device and timeline of actions (an event that made a change
 * links to it; notes added under it, alerts/AlertNotes.tsx), Assign to… (alerts/AlertAssign.tsx), the assistant's triage (AlertTriage.tsx), and the alert's shared chat. Live: alertChanged for this alert refreshes it.
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { Link } from 'wouter';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { alertsWithLabel, Annotations, LabelList } from '../components/Labels';
import { AlertTriage } from './AlertTriage';
import { AlertAssign } from './alerts/AlertAssign';
import { AlertNotes } from './alerts/AlertNotes';
import { Ago } from '../components/Ago';
import { AlertPaging } from './paging/AlertPaging';
import { AlertPaging as AlertPagingReasons } from './routing/AlertPaging';
import { lower, when } from '../lib/format';
import { graphql } from '../lib/graphql';

const AlertQuery = graphql(`
  query ConsoleAlert($id: ID!) {
    alert(id: $id) {
      id
      summary
      status
      severity
      source
      count
      dedupKey
      suppressed
      firstSeenAt
      lastSeenAt
      snoozedUntil
      acknowledgedAt
      resolvedAt
      allowedActions
      labels
      annotations
      assignee {
        id
        email
      }
      rule {
        id
        name
        kind
        typeGlob
        source
      }
      device {
        id
        name
        site
        role
      }
      maintenanceWindow {
        id
        name
      }
      events(limit: 20) {
        id
        type
        severity
        summary
        source
        receivedAt
      }
      timeline {
        id
        action
        fromStatus
        toStatus
        note
        createdAt
        actor {
          email
        }
        actorEventId
        actorEvent {
          id
          type
          summary
        }
      }
    }
    alertConversation(alertId: $id) {
      id
      messages {
        id
        role
        content
        createdAt
        author {
          email
        }
      }
    }
  }
`);
const AlertChangedOne = graphql(`
  subscription ConsoleAlertChanged($filter: AlertChangedFilter) {
    alertChanged(filter: $filter) {
      change
      alert {
        id
        status
      }
    }
  }
`);
const Acknowledge = graphql(`
  mutation ConsoleAcknowledgeAlert($id: ID!) {
    acknowledgeAlert(id: $id) {
      id
      status
      allowedActions
      acknowledgedAt
      assignee {
        email
      }
    }
  }
`);
const Snooze = graphql(`
  mutation ConsoleSnoozeAlert($id: ID!, $input: SnoozeAlertInput!) {
    snoozeAlert(id: $id, input: $input) {
      id
      status
      allowedActions
      snoozedUntil
    }
  }
`);
const Resolve = graphql(`
  mutation ConsoleResolveAlert($id: ID!) {
    resolveAlert(id: $id) {
      id
      status
      allowedActions
      resolvedAt
    }
  }
`);
const SendChat = graphql(`
  mutation ConsoleSendAlertChat($alertId: ID!, $message: String!) {
    sendAlertChatMessage(alertId: $alertId, message: $message) {
      reply {
        id
        content
      }
      conversation {
        id
      }
    }
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
  const { result, refetch } = useLiveQuery({
    query: AlertQuery,
    variables: { id: params.id },
    subscription: AlertChangedOne,
    subscriptionVariables: { filter: { alertId: params.id } },
  });
  const [, acknowledge] = useMutation(Acknowledge);
  const [, snooze] = useMutation(Snooze);
  const [, resolve] = useMutation(Resolve);
  const [, sendChat] = useMutation(SendChat);
  const [snoozeFor, setSnoozeFor] = useState<(typeof SNOOZE_FOR)[number]['value']>('1h');
  const [message, setMessage] = useState('');
  const a = result.data?.alert;
  const notNow = (action: 'ACKNOWLEDGE' | 'SNOOZE' | 'RESOLVE') =>
    a && !a.allowedActions.includes(action) ? `Not possible while the alert is ${lower(a.status)}.` : null;
  const refresh = () => refetch();

  return (
    <Page
      title={a ? a.summary : 'Alert'}
      error={result.error}
      loading={result.fetching && !a}
      actions={<Link href="/alerts">All alerts</Link>}
    >
      {a && (
        <>
          <Card title="State">
            <dl className="facts">
              <dt>Status</dt>
              <dd>
                <Badge value={a.status} />{' '}
                {a.snoozedUntil && a.status === 'SNOOZED' ? `until ${when(a.snoozedUntil)}` : ''}
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
              <dd>
                {a.rule ? (
                  <Link href="/rules">{`${a.rule.name} (${lower(a.rule.kind)}${a.rule.typeGlob ? `, ${a.rule.typeGlob}` : ''})`}</Link>
                ) : (
                  '—'
                )}
              </dd>
              <dt>Device</dt>
              <dd>{a.device ? <Link href={`/devices/${a.device.id}`}>{a.device.name}</Link> : '—'}</dd>
              <dt>Muted</dt>
              <dd>
                {a.maintenanceWindow
                  ? `suppressed by ${a.maintenanceWindow.name}`
                  : a.suppressed
                    ? 'yes (see why it did or didn’t page)'
                    : 'no'}
              </dd>
              <dt>Dedup key</dt>
              <dd>
                <code>{a.dedupKey}</code>
              </dd>
            </dl>
            <div className="row-actions" role="group" aria-label="Alert actions">
              <ActionButton
                variant="primary"
                run={() => acknowledge({ id: a.id })}
                deniedBecause={notNow('ACKNOWLEDGE')}
              >
                Acknowledge
              </ActionButton>
              <span className="snooze">
                <SelectField label="Snooze for" value={snoozeFor} onChange={setSnoozeFor} options={SNOOZE_FOR} />
                <ActionButton
                  run={() => snooze({ id: a.id, input: { duration: snoozeFor } })}
                  deniedBecause={notNow('SNOOZE')}
                >
                  Snooze
                </ActionButton>
              </span>
              <ActionButton run={() => resolve({ id: a.id })} deniedBecause={notNow('RESOLVE')}>
                Resolve
              </ActionButton>
              <AlertAssign
                alertId={a.id}
                assigneeId={a.assignee?.id ?? null}
                resolved={a.status === 'RESOLVED'}
                onDone={refresh}
              />
            </div>
          </Card>

          <AlertPaging alertId={a.id} onChanged={refresh} />

          <Card title="Labels and annotations">
            <h3>Labels</h3>
            <LabelList labels={a.labels} name="Alert labels" href={alertsWithLabel} />
            <h3>Annotations</h3>
            <Annotations annotations={a.annotations} labels={a.labels} />
          </Card>

          <AlertPagingReasons alertId={a.id} version={`${a.status} ${a.lastSeenAt} ${a.suppressed}`} />

          <AlertTriage alertId={a.id} deviceId={a.device?.id ?? null} onChanged={refresh} />

          <Card title="Events">
            <DataTable
              caption="Alert events"
              rows={a.events}
              rowKey={(e) => e.id}
              columns={[
                { header: 'Received', cell: (e) => <Ago at={e.receivedAt} /> },
                { header: 'Type', cell: (e) => <code>{e.type}</code>, wide: true },
                { header: 'Summary', cell: (e) => <Link href={`/events/${e.id}`}>{e.summary || e.type}</Link> },
              ]}
            />
          </Card>
          <Card title="Timeline of actions">
            <DataTable
              caption="Alert timeline"
              rows={a.timeline}
              rowKey={(t) => t.id}
              columns={[
                { header: 'When', cell: (t) => <Ago at={t.createdAt} /> },
                { header: 'Action', cell: (t) => t.action },
                { header: 'By', cell: (t) => <ActionBy entry={t} /> },
                { header: 'Note', cell: (t) => <span className="reason-text">{t.note ?? ''}</span> },
              ]}
            />
            <AlertNotes alertId={a.id} onDone={refresh} />
          </Card>

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

/** Who made a change: a person, the event that made it (linked while the event is kept), or the service. */
function ActionBy({
  entry: t,
}: {
  entry: {
    actor: { email: string } | null;
    actorEventId: string | null;
    actorEvent: { id: string; type: string; summary: string | null } | null;
  };
}) {
  if (t.actor) return <>{t.actor.email}</>;
  if (t.actorEvent) {
    return (
      <Link href={`/events/${t.actorEvent.id}`} title={t.actorEvent.id}>
        {`event ${t.actorEvent.summary || t.actorEvent.type}`}
      </Link>
    );
  }
  if (t.actorEventId) {
    return (
      <>
        event <code>{t.actorEventId}</code> (no longer kept)
      </>
    );
  }
  return <>system</>;
}
