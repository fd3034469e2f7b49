/**
 * The paging state of an alert: its group's policy, the step that ran last and when the next is due, and every
 * notification (who, how, with what result), with "Escalate now" and "Reassign".
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { ActionButton } from '../../components/ActionButton';
import { DataTable } from '../../components/DataTable';
import { SelectField } from '../../components/Field';
import { Badge, Card } from '../../components/Page';
import { ErrorView } from '../../components/ErrorView';
import { usePeople } from '../Schedules';
import { lower, when } from '../../lib/format';
import { graphql } from '../../lib/graphql';

const PagingQuery = graphql(`
  query ConsoleAlertPaging($id: ID!) {
    alert(id: $id) {
      id
      group {
        id
        status
        step
        round
        nextStepAt
        policy {
          id
          name
          steps {
            position
          }
        }
      }
      notifications {
        id
        kind
        status
        reason
        step
        round
        error
        sentAt
        createdAt
        user {
          id
          name
          email
        }
      }
    }
  }
`);
const GroupChanged = graphql(`
  subscription ConsoleAlertGroupChanged($groupId: ID) {
    alertGroupChanged(groupId: $groupId) {
      group {
        id
        status
        step
      }
    }
  }
`);
const GroupNotificationChanged = graphql(`
  subscription ConsoleGroupNotificationChanged($groupId: ID) {
    notificationChanged(groupId: $groupId) {
      id
      status
    }
  }
`);
const Escalate = graphql(`
  mutation ConsoleEscalateAlertGroup($id: ID!) {
    escalateAlertGroup(id: $id) {
      id
      step
    }
  }
`);
const Reassign = graphql(`
  mutation ConsoleReassignAlertGroup($id: ID!, $userId: ID!) {
    reassignAlertGroup(id: $id, userId: $userId) {
      id
    }
  }
`);

export function AlertPaging({ alertId, onChanged }: { alertId: string; onChanged: () => void }) {
  const [result, refetch] = useQuery({ query: PagingQuery, variables: { id: alertId } });
  const [, escalate] = useMutation(Escalate);
  const [, reassign] = useMutation(Reassign);
  const people = usePeople();
  const [to, setTo] = useState('');
  const g = result.data?.alert.group;
  // Live: the group's paging state and its notifications' results refresh this card as they change.
  const [groupChange] = useSubscription({ query: GroupChanged, variables: { groupId: g?.id }, pause: !g });
  const [notificationChange] = useSubscription({
    query: GroupNotificationChanged,
    variables: { groupId: g?.id },
    pause: !g,
  });
  useEffect(() => {
    if (groupChange.data || notificationChange.data) refetch({ requestPolicy: 'network-only' });
  }, [groupChange.data, notificationChange.data, refetch]);
  const refresh = () => {
    refetch({ requestPolicy: 'network-only' });
    onChanged();
  };
  return (
    <Card title="Paging">
      <ErrorView error={result.error} />
      {result.data && !g && <p>This alert pages nobody.</p>}
      {g && (
        <>
          <p>
            <Badge value={lower(g.status)} /> Policy: <strong>{g.policy?.name ?? 'none'}</strong> · step{' '}
            {g.step < 0 ? 'none yet' : `${g.step + 1} of ${g.policy?.steps.length ?? '?'}`}
            {g.round > 0 ? `, round ${g.round + 1}` : ''} · next step {g.nextStepAt ? when(g.nextStepAt) : '—'}
          </p>
          <div className="actions">
            <ActionButton
              run={() => escalate({ id: g.id })}
              deniedBecause={g.status === 'FIRING' ? null : `The group is ${lower(g.status)}.`}
              onDone={refresh}
            >
              Escalate now
            </ActionButton>
            <SelectField
              label="Reassign to"
              value={to}
              onChange={setTo}
              options={[
                { value: '', label: 'choose…' },
                ...people.map((p) => ({ value: p.id, label: p.name || p.email })),
              ]}
            />
            <ActionButton
              run={() => reassign({ id: g.id, userId: to })}
              deniedBecause={
                to ? (g.status === 'RESOLVED' ? 'The group is resolved.' : null) : 'Choose a person first.'
              }
              onDone={refresh}
            >
              Reassign
            </ActionButton>
          </div>
        </>
      )}
      <DataTable
        caption="Notifications"
        rows={result.data?.alert.notifications}
        rowKey={(n) => n.id}
        empty="Nobody notified yet."
        columns={[
          { header: 'Who', cell: (n) => n.user.name || n.user.email },
          { header: 'How', cell: (n) => lower(n.kind) },
          { header: 'Result', cell: (n) => `${lower(n.status)}${n.error ? `: ${n.error}` : ''}` },
          { header: 'Why', cell: (n) => `${lower(n.reason)}${n.step != null ? `, step ${n.step + 1}` : ''}` },
          { header: 'When', cell: (n) => when(n.sentAt ?? n.createdAt) },
        ]}
      />
    </Card>
  );
}
