/**
 * My profile, for paging: my contact methods (each with a Test button that sends a test notification and shows
 * its result), my notification rules (which method after how long, per urgency), and my next shifts.
 */
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { lower, when } from '../lib/format';
import { graphql } from '../lib/graphql';

const ProfileQuery = graphql(`
  query ConsoleProfile($from: DateTime!, $to: DateTime!) {
    viewer {
      user {
        id
      }
      contactMethods {
        id
        kind
        name
        address
        topic
        enabled
      }
      notificationRules {
        id
        urgency
        delayMinutes
        contactMethod {
          id
          name
        }
      }
    }
    schedules {
      id
      name
      finalShifts(from: $from, to: $to) {
        userId
        start
        end
      }
    }
  }
`);
const CreateMethod = graphql(`
  mutation ConsoleCreateContactMethod($input: ContactMethodInput!) {
    createContactMethod(input: $input) {
      id
      secret
    }
  }
`);
const TestMethod = graphql(`
  mutation ConsoleTestContactMethod($id: ID!) {
    testContactMethod(id: $id) {
      id
      status
      error
    }
  }
`);
const CreateRule = graphql(`
  mutation ConsoleCreateNotificationRule($input: NotificationRuleInput!) {
    createNotificationRule(input: $input) {
      id
    }
  }
`);
const DeleteRule = graphql(`
  mutation ConsoleDeleteNotificationRule($id: ID!) {
    deleteNotificationRule(id: $id)
  }
`);

const KINDS = ['EMAIL', 'NTFY', 'SLACK', 'MATTERMOST', 'TEAMS', 'DISCORD', 'WEBHOOK'] as const;

export function Profile() {
  const [from, to] = useMemo(() => {
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    return [now, new Date(now.getTime() + 14 * 86400_000)];
  }, []);
  const [result, refetch] = useQuery({
    query: ProfileQuery,
    variables: { from: from.toISOString(), to: to.toISOString() },
  });
  const [, createMethod] = useMutation(CreateMethod);
  const [, testMethod] = useMutation(TestMethod);
  const [, createRule] = useMutation(CreateRule);
  const [, deleteRule] = useMutation(DeleteRule);
  const [tested, setTested] = useState<Record<string, string>>({});
  const [kind, setKind] = useState<(typeof KINDS)[number]>('EMAIL');
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [topic, setTopic] = useState('');
  const [ruleMethod, setRuleMethod] = useState('');
  const [urgency, setUrgency] = useState<'HIGH' | 'LOW'>('HIGH');
  const [delay, setDelay] = useState('0');
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const v = result.data?.viewer;
  const myShifts =
    result.data?.schedules.flatMap((s) =>
      s.finalShifts.filter((x) => x.userId === v?.user.id).map((x) => ({ ...x, schedule: s.name })),
    ) ?? [];
  myShifts.sort((a, b) => a.start.localeCompare(b.start));
  return (
    <Page title="My profile" error={result.error} loading={result.fetching && !v}>
      {v && (
        <>
          <Card title="Contact methods">
            <p>The in-app inbox is always on.</p>
            <DataTable
              caption="Contact methods"
              rows={v.contactMethods}
              rowKey={(m) => m.id}
              columns={[
                { header: 'Name', cell: (m) => m.name },
                { header: 'Kind', cell: (m) => lower(m.kind) },
                { header: 'Address', cell: (m) => [m.address, m.topic].filter(Boolean).join(' · ') },
                {
                  header: 'Test',
                  cell: (m) => (
                    <>
                      <ActionButton
                        label={`Test ${m.name}`}
                        run={async () => {
                          const r = await testMethod({ id: m.id });
                          const n = r.data?.testContactMethod;
                          if (n) setTested({ ...tested, [m.id]: `${lower(n.status)}${n.error ? `: ${n.error}` : ''}` });
                          return r;
                        }}
                      >
                        Test
                      </ActionButton>
                      {tested[m.id] && <output aria-label={`Test result of ${m.name}`}>{tested[m.id]}</output>}
                    </>
                  ),
                },
              ]}
            />
          </Card>
          <MutationForm
            title="Add a contact method"
            submitLabel="Add contact method"
            onSubmit={() => createMethod({ input: { kind, name, address: address || null, topic: topic || null } })}
            onDone={() => {
              setName('');
              setAddress('');
              refresh();
            }}
          >
            <SelectField label="Kind" value={kind} onChange={setKind} options={KINDS} />
            <TextField label="Method name" value={name} onChange={setName} required />
            <TextField
              label="Address"
              value={address}
              onChange={setAddress}
              hint="Email address, ntfy server or webhook URL."
            />
            {kind === 'NTFY' && <TextField label="Topic" value={topic} onChange={setTopic} />}
          </MutationForm>
          <Card title="Notification rules">
            <DataTable
              caption="Notification rules"
              rows={v.notificationRules}
              rowKey={(r) => r.id}
              empty="No rules: you get the inbox (and email when SMTP is configured) at once."
              columns={[
                { header: 'Urgency', cell: (r) => lower(r.urgency) },
                { header: 'After', cell: (r) => `${r.delayMinutes} min` },
                { header: 'Method', cell: (r) => r.contactMethod.name },
                {
                  header: '',
                  cell: (r) => (
                    <ActionButton
                      label={`Delete rule ${r.contactMethod.name} after ${r.delayMinutes} min`}
                      run={() => deleteRule({ id: r.id })}
                      onDone={refresh}
                    >
                      Delete
                    </ActionButton>
                  ),
                },
              ]}
            />
          </Card>
          <MutationForm
            title="Add a notification rule"
            submitLabel="Add rule"
            onSubmit={() =>
              createRule({
                input: {
                  urgency,
                  delayMinutes: Number(delay || 0),
                  contactMethodId: ruleMethod || v.contactMethods[0]?.id || '',
                },
              })
            }
            onDone={refresh}
          >
            <SelectField label="Urgency" value={urgency} onChange={setUrgency} options={['HIGH', 'LOW'] as const} />
            <SelectField
              label="Method"
              value={ruleMethod}
              onChange={setRuleMethod}
              options={[
                { value: '', label: 'choose…' },
                ...v.contactMethods.map((m) => ({ value: m.id, label: m.name })),
              ]}
            />
            <TextField label="After (minutes)" type="number" value={delay} onChange={setDelay} />
          </MutationForm>
          <Card title="My next shifts">
            <DataTable
              caption="My next shifts"
              rows={myShifts}
              rowKey={(s) => `${s.schedule}-${s.start}`}
              empty="No shifts in the next 14 days."
              columns={[
                { header: 'Schedule', cell: (s) => s.schedule },
                { header: 'From', cell: (s) => when(s.start) },
                { header: 'To', cell: (s) => when(s.end) },
              ]}
            />
          </Card>
        </>
      )}
    </Page>
  );
}
