/**
 * An alert's triage card: run (again) a triage, its likely causes and checks with their evidence as
 * links, and the actions the assistant proposes (Approve / Reject), their arguments and results with
 * the ids they name linked. Part of the alert page (AlertDetail.tsx). Live: a change of the alert (by
 * this user, another one or the API) fetches it again, so the card says what the alert is now and an
 * action made stale (`staleReason`) is no longer offered for approval; so does an action's expiry.
 */
import { useEffect, useState } from 'react';
import { useMutation } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { TextField } from '../components/Field';
import { Badge, Card } from '../components/Page';
import { Evidence, IdFields } from '../components/Evidence';
import { ErrorView } from '../components/ErrorView';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { humanOnly } from '../lib/permissions';
import { lower, when } from '../lib/format';
import { graphql } from '../lib/graphql';

const TriageQuery = graphql(`
  query ConsoleAlertTriage($id: ID!) {
    alert(id: $id) {
      id
      status
      latestTriage {
        id
        summary
        provider
        createdAt
        checks {
          name
          status
          message
          interesting
          evidence {
            kind
            id
            label
          }
        }
        likelyCauses {
          cause
          confidence
          score
          relations {
            kind
            detail
          }
          evidence {
            kind
            id
            label
          }
        }
      }
      assistantActions {
        id
        tool
        args
        argsHash
        rationale
        risk
        status
        reason
        result
        expiresAt
        staleReason
        decidedBy {
          email
        }
      }
    }
  }
`);
const TriageAlertChanged = graphql(`
  subscription ConsoleTriageAlertChanged($filter: AlertChangedFilter) {
    alertChanged(filter: $filter) {
      change
      alert {
        id
        status
      }
    }
  }
`);
const Triage = graphql(`
  mutation ConsoleTriageAlert($alertId: ID!) {
    triageAlert(alertId: $alertId) {
      id
      summary
    }
  }
`);
const ApproveAction = graphql(`
  mutation ConsoleApproveAssistantAction($actionId: ID!, $alertId: ID!, $argsHash: String) {
    approveAssistantAction(actionId: $actionId, alertId: $alertId, argsHash: $argsHash) {
      id
      status
      result
    }
  }
`);
const RejectAction = graphql(`
  mutation ConsoleRejectAssistantAction($actionId: ID!, $alertId: ID!, $reason: String) {
    rejectAssistantAction(actionId: $actionId, alertId: $alertId, reason: $reason) {
      id
      status
      reason
    }
  }
`);

/** `deviceId`: the alert's device (its drift reports and intent versions open on its page). */
export function AlertTriage({
  alertId,
  deviceId,
  onChanged,
}: {
  alertId: string;
  deviceId: string | null;
  onChanged: () => void;
}) {
  const me = useMe();
  const { result, refetch } = useLiveQuery({
    query: TriageQuery,
    variables: { id: alertId },
    subscription: TriageAlertChanged,
    subscriptionVariables: { filter: { alertId } },
  });
  const [, triage] = useMutation(Triage);
  const [, approve] = useMutation(ApproveAction);
  const [, reject] = useMutation(RejectAction);
  const [rejectReason, setRejectReason] = useState('');
  const refresh = () => {
    refetch();
    onChanged();
  };
  const a = result.data?.alert;
  // An action past its time is stale without any change of the alert: fetch again when the next one expires.
  const nextExpiry = Math.min(
    ...(a?.assistantActions ?? [])
      .filter((x) => x.status === 'PROPOSED' && !x.staleReason)
      .map((x) => new Date(x.expiresAt).getTime()),
  );
  useEffect(() => {
    if (!Number.isFinite(nextExpiry)) return;
    const timer = setTimeout(refetch, Math.min(Math.max(0, nextExpiry - Date.now()) + 1000, 2 ** 31 - 1));
    return () => clearTimeout(timer);
    // refetch is a new function each render; the timer follows the next expiry only.
  }, [nextExpiry]);
  const t = a?.latestTriage;
  // Drift reports and intent versions open on their device's page: the alert's device, else the device the triage looked at.
  const device =
    deviceId ??
    [...(t?.checks ?? []), ...(t?.likelyCauses ?? [])].flatMap((x) => x.evidence).find((e) => e.kind === 'DEVICE')
      ?.id ??
    null;
  return (
    <Card title="Triage">
      <ErrorView error={result.error} />
      {a && (
        <p aria-label="Alert status now">
          The alert is <Badge value={a.status} /> now
          {t && a.status !== 'OPEN' ? '; the triage below was run earlier and may describe it as it was then.' : '.'}
        </p>
      )}
      <ActionButton run={() => triage({ alertId })} onDone={refresh}>
        {t ? 'Triage again' : 'Triage'}
      </ActionButton>
      {t && (
        <>
          <p>
            {t.summary}{' '}
            <small className="hint">
              ({t.provider}, {when(t.createdAt)})
            </small>
          </p>
          <h3>Likely causes</h3>
          <ul>
            {t.likelyCauses.map((c, i) => (
              <li key={i}>
                {c.cause} <Badge value={c.confidence} />
                {c.score != null && <small className="hint"> score {c.score}</small>}{' '}
                <Evidence items={c.evidence} deviceId={device} />
              </li>
            ))}
          </ul>
          <DataTable
            caption="Checks"
            rows={t.checks}
            rowKey={(c) => c.name}
            columns={[
              { header: 'Check', cell: (c) => c.name },
              { header: 'Status', cell: (c) => <Badge value={c.status} /> },
              { header: 'Finding', cell: (c) => (c.interesting ? <strong>{c.message}</strong> : c.message) },
              { header: 'Evidence', cell: (c) => <Evidence items={c.evidence} deviceId={device} />, wide: true },
            ]}
          />
        </>
      )}
      <h3>Proposed actions</h3>
      <TextField label="Reason for rejecting" value={rejectReason} onChange={setRejectReason} />
      <DataTable
        caption="Proposed actions"
        rows={a?.assistantActions}
        rowKey={(x) => x.id}
        empty="No actions proposed."
        columns={[
          { header: 'Action', cell: (x) => <code>{lower(x.tool)}</code> },
          {
            header: 'Arguments',
            cell: (x) => <IdFields value={x.args} name={`Arguments of ${lower(x.tool)}`} />,
            wide: true,
          },
          { header: 'Why', cell: (x) => x.rationale },
          { header: 'Risk', cell: (x) => <Badge value={x.risk} /> },
          {
            header: 'Status',
            cell: (x) => (
              <>
                {<Badge value={x.status} />} {x.reason ?? ''} {x.decidedBy ? `by ${x.decidedBy.email}` : ''}
              </>
            ),
          },
          {
            header: 'Result',
            cell: (x) => (x.result ? <IdFields value={x.result} name={`Result of ${lower(x.tool)}`} /> : '—'),
            wide: true,
          },
          {
            header: 'Decide',
            cell: (x) => {
              const decided = x.status !== 'PROPOSED' ? `Already ${lower(x.status)}.` : x.staleReason;
              return (
                <div className="row-actions" role="group" aria-label={`Decide ${lower(x.tool)}`}>
                  <ActionButton
                    variant="primary"
                    run={() => approve({ actionId: x.id, alertId, argsHash: x.argsHash })}
                    deniedBecause={decided ?? humanOnly(me)}
                    onDone={refresh}
                  >
                    Approve
                  </ActionButton>
                  <ActionButton
                    run={() => reject({ actionId: x.id, alertId, reason: rejectReason || null })}
                    deniedBecause={decided}
                    onDone={refresh}
                  >
                    Reject
                  </ActionButton>
                </div>
              );
            },
          },
        ]}
      />
    </Card>
  );
}
