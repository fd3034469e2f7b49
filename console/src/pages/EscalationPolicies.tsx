/**
 * Escalation policies: each policy's steps (after how long, whom: a person or whoever is on call in a schedule),
 * which one is the tenant default, and a form that creates a policy or edits one's steps (admins).
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { usePeople } from './Schedules';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { graphql } from '../lib/graphql';

const PoliciesQuery = graphql(`
  query ConsoleEscalationPolicies {
    escalationPolicies {
      id
      name
      repeat
      steps {
        position
        delayMinutes
        targets {
          type
          id
        }
      }
    }
    pagingSettings {
      defaultEscalationPolicyId
    }
    schedules {
      id
      name
    }
  }
`);
const CreatePolicy = graphql(`
  mutation ConsoleCreateEscalationPolicy($input: CreateEscalationPolicyInput!) {
    createEscalationPolicy(input: $input) {
      id
    }
  }
`);
const UpdatePolicy = graphql(`
  mutation ConsoleUpdateEscalationPolicy($id: ID!, $input: UpdateEscalationPolicyInput!) {
    updateEscalationPolicy(id: $id, input: $input) {
      id
    }
  }
`);
const SetDefault = graphql(`
  mutation ConsoleUpdatePagingSettings($input: UpdatePagingSettingsInput!) {
    updatePagingSettings(input: $input) {
      defaultEscalationPolicyId
    }
  }
`);

interface StepDraft {
  delay: string;
  /** `USER:<id>` or `SCHEDULE:<id>`. */
  target: string;
}
type TargetType = 'USER' | 'SCHEDULE';

export function EscalationPolicies() {
  const me = useMe();
  const [result, refetch] = useQuery({ query: PoliciesQuery });
  const [, create] = useMutation(CreatePolicy);
  const [, update] = useMutation(UpdatePolicy);
  const [, setDefault] = useMutation(SetDefault);
  const people = usePeople();
  const [editing, setEditing] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [steps, setSteps] = useState<StepDraft[]>([{ delay: '0', target: '' }]);
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const data = result.data;
  const targetOptions = [
    { value: '', label: 'choose…' },
    ...(data?.schedules ?? []).map((s) => ({ value: `SCHEDULE:${s.id}`, label: `On call: ${s.name}` })),
    ...people.map((p) => ({ value: `USER:${p.id}`, label: p.name || p.email })),
  ];
  const targetName = (t: { type: string; id: string }) =>
    targetOptions.find((o) => o.value === `${t.type}:${t.id}`)?.label ?? `${t.type.toLowerCase()} ${t.id.slice(0, 8)}`;
  const setStep = (i: number, patch: Partial<StepDraft>) =>
    setSteps(steps.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const stepsInput = () =>
    steps.map((s) => {
      const [type, id] = s.target.split(':') as [TargetType, string];
      return { delayMinutes: Number(s.delay || 0), targets: s.target ? [{ type, id }] : [] };
    });
  const reset = () => {
    setEditing(null);
    setName('');
    setSteps([{ delay: '0', target: '' }]);
    refresh();
  };
  return (
    <Page title="Escalation policies" error={result.error} loading={result.fetching && !data}>
      {data?.escalationPolicies.length === 0 && <p>No escalation policies yet: nobody is paged when an alert opens.</p>}
      {data?.escalationPolicies.map((p) => (
        <Card key={p.id} title={p.name}>
          {data.pagingSettings.defaultEscalationPolicyId === p.id && <Badge value="default" />}
          <ol aria-label={`${p.name} steps`}>
            {p.steps.map((s) => (
              <li key={s.position}>
                after {s.delayMinutes} min: {s.targets.map(targetName).join(', ')}
              </li>
            ))}
          </ol>
          {p.repeat > 0 && <p>Repeats {p.repeat} more time(s).</p>}
          <ActionButton
            label={`Edit ${p.name}`}
            deniedBecause={adminOnly(me)}
            run={async () => {
              setEditing(p.id);
              setName(p.name);
              setSteps(
                p.steps.map((s) => ({
                  delay: String(s.delayMinutes),
                  target: `${s.targets[0]?.type}:${s.targets[0]?.id}`,
                })),
              );
            }}
          >
            Edit
          </ActionButton>
          {data.pagingSettings.defaultEscalationPolicyId !== p.id && (
            <ActionButton
              label={`Make ${p.name} the default`}
              deniedBecause={adminOnly(me)}
              run={() => setDefault({ input: { defaultEscalationPolicyId: p.id } })}
              onDone={refresh}
            >
              Make default
            </ActionButton>
          )}
        </Card>
      ))}
      <MutationForm
        title={editing ? `Edit ${name}` : 'New escalation policy'}
        submitLabel={editing ? 'Save policy' : 'Create policy'}
        deniedBecause={adminOnly(me)}
        onSubmit={() =>
          editing
            ? update({ id: editing, input: { name, steps: stepsInput() } })
            : create({ input: { name, steps: stepsInput() } })
        }
        onDone={reset}
      >
        <TextField label="Policy name" value={name} onChange={setName} required />
        {steps.map((s, i) => (
          <div key={i} className="step">
            <TextField
              label={`Step ${i + 1} delay (minutes)`}
              type="number"
              value={s.delay}
              onChange={(v) => setStep(i, { delay: v })}
            />
            <SelectField
              label={`Step ${i + 1} target`}
              value={s.target}
              onChange={(v) => setStep(i, { target: v })}
              options={targetOptions}
            />
          </div>
        ))}
        <button type="button" className="plain" onClick={() => setSteps([...steps, { delay: '5', target: '' }])}>
          Add step
        </button>
      </MutationForm>
    </Page>
  );
}
