/**
 * Inhibition rules (Alertmanager's `inhibit_rules`): while a live alert matches the source matchers,
 * alerts matching the target matchers with the same values of the `equal` labels page no one. Members
 * read; admins create and delete.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, TextField } from '../components/Field';
import { Page } from '../components/Page';
import { graphql } from '../lib/graphql';
import { matcherText, parseMatcherText } from '../lib/matchers';
import { adminOnly } from '../lib/permissions';
import { useMe } from '../lib/session';

const InhibitRulesQuery = graphql(`
  query ConsoleInhibitRules {
    inhibitRules {
      id
      name
      sourceMatchers {
        name
        type
        value
      }
      targetMatchers {
        name
        type
        value
      }
      equal
      createdAt
    }
  }
`);
const CreateInhibitRule = graphql(`
  mutation ConsoleCreateInhibitRule($input: CreateInhibitRuleInput!) {
    createInhibitRule(input: $input) {
      id
    }
  }
`);
const DeleteInhibitRule = graphql(`
  mutation ConsoleDeleteInhibitRule($id: ID!) {
    deleteInhibitRule(id: $id)
  }
`);

const labelNames = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function InhibitRules() {
  const me = useMe();
  const [{ data, error, fetching }, refetch] = useQuery({
    query: InhibitRulesQuery,
    requestPolicy: 'cache-and-network',
  });
  const [, create] = useMutation(CreateInhibitRule);
  const [, remove] = useMutation(DeleteInhibitRule);
  const [name, setName] = useState('');
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [equal, setEqual] = useState('');
  const refresh = () => refetch({ requestPolicy: 'network-only' });

  return (
    <Page title="Inhibition rules" error={error} loading={fetching && !data}>
      <MutationForm
        title="New inhibition rule"
        submitLabel="Create rule"
        deniedBecause={adminOnly(me)}
        onDone={refresh}
        onSubmit={async () => {
          const r = await create({
            input: {
              name: name || undefined,
              sourceMatchers: parseMatcherText(source),
              targetMatchers: parseMatcherText(target),
              equal: labelNames(equal),
            },
          });
          if (!r.error) {
            setName('');
            setSource('');
            setTarget('');
            setEqual('');
          }
          return r;
        }}
      >
        <TextField label="Name" value={name} onChange={setName} />
        <TextField
          label="Source matchers"
          value={source}
          onChange={setSource}
          required
          placeholder='alertname="NodeDown"'
          hint="While a live alert matches these…"
        />
        <TextField
          label="Target matchers"
          value={target}
          onChange={setTarget}
          placeholder='severity="warning"'
          hint="…alerts matching these page no one. Empty: every alert."
        />
        <TextField
          label="Equal labels"
          value={equal}
          onChange={setEqual}
          placeholder="instance, cluster"
          hint="Labels whose values the two alerts must share."
        />
      </MutationForm>
      <DataTable
        caption="Inhibition rules"
        rows={data?.inhibitRules}
        rowKey={(r) => r.id}
        columns={[
          { header: 'Name', cell: (r) => r.name ?? '—' },
          { header: 'Source', cell: (r) => <code>{matcherText(r.sourceMatchers)}</code> },
          {
            header: 'Target',
            cell: (r) => (r.targetMatchers.length ? <code>{matcherText(r.targetMatchers)}</code> : 'every alert'),
          },
          { header: 'Equal', cell: (r) => r.equal.join(', ') || '—' },
          {
            header: 'Actions',
            cell: (r) => (
              <ActionButton
                label={`Delete inhibition rule ${r.name ?? matcherText(r.sourceMatchers)}`}
                variant="danger"
                run={() => remove({ id: r.id })}
                deniedBecause={adminOnly(me)}
                onDone={refresh}
              >
                Delete
              </ActionButton>
            ),
          },
        ]}
      />
    </Page>
  );
}
