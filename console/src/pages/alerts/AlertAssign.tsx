/**
 * "Assign to…" on the alert page: a picker of the tenant's users (alertAssignees) and "nobody"; Assign runs
 * assignAlert, which records "assigned to …" on the alert's timeline. A resolved alert cannot be assigned.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../../components/ActionButton';
import { SelectField } from '../../components/Field';
import { graphql } from '../../lib/graphql';

const Assignees = graphql(`
  query ConsoleAlertAssignees {
    alertAssignees {
      id
      email
      name
    }
  }
`);
const Assign = graphql(`
  mutation ConsoleAssignAlert($id: ID!, $userId: ID) {
    assignAlert(id: $id, userId: $userId) {
      id
      assignee {
        id
        email
      }
    }
  }
`);

export function AlertAssign({
  alertId,
  assigneeId,
  resolved,
  onDone,
}: {
  alertId: string;
  assigneeId: string | null;
  resolved: boolean;
  onDone: () => void;
}) {
  const [users] = useQuery({ query: Assignees });
  const [, assign] = useMutation(Assign);
  const [choice, setChoice] = useState<string | null>(null);
  const value = choice ?? assigneeId ?? '';
  const options = [
    { value: '', label: 'nobody' },
    ...(users.data?.alertAssignees ?? []).map((u) => ({
      value: u.id,
      label: u.name ? `${u.name} (${u.email})` : u.email,
    })),
  ];
  return (
    <span className="assign">
      <SelectField label="Assign to…" value={value} onChange={setChoice} options={options} />
      <ActionButton
        run={() => assign({ id: alertId, userId: value || null })}
        deniedBecause={
          resolved
            ? 'A resolved alert cannot be assigned.'
            : value === (assigneeId ?? '')
              ? 'Choose someone else first.'
              : null
        }
        onDone={() => {
          setChoice(null);
          onDone();
        }}
      >
        Assign
      </ActionButton>
    </span>
  );
}
