/** Suggested (starter) rules on the Rules page: each enabled in one click by an admin. */
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { Card } from '../components/Page';
import { graphql } from '../lib/graphql';

const SuggestionsQuery = graphql(`
  query ConsoleSuggestedAlertRules {
    suggestedAlertRules {
      key
      name
      description
      kind
      enabled
      ruleId
    }
  }
`);
const EnableSuggestion = graphql(`
  mutation ConsoleEnableSuggestedAlertRule($key: String!) {
    enableSuggestedAlertRule(key: $key) {
      id
      name
      enabled
    }
  }
`);

export function RuleSuggestions({ denied, onEnabled }: { denied: string | null; onEnabled: () => void }) {
  const [result, refetch] = useQuery({ query: SuggestionsQuery });
  const [, enable] = useMutation(EnableSuggestion);
  return (
    <Card title="Suggested rules">
      <DataTable
        caption="Suggested rules"
        rows={result.data?.suggestedAlertRules}
        rowKey={(s) => s.key}
        empty="No suggestions."
        columns={[
          { header: 'Rule', cell: (s) => s.name },
          { header: 'What it does', cell: (s) => s.description, wide: true },
          {
            header: 'Enabled',
            cell: (s) =>
              s.enabled ? (
                'yes'
              ) : (
                <ActionButton
                  run={() => enable({ key: s.key })}
                  deniedBecause={denied}
                  onDone={() => {
                    refetch({ requestPolicy: 'network-only' });
                    onEnabled();
                  }}
                >
                  {`Enable ${s.name}`}
                </ActionButton>
              ),
          },
        ]}
      />
    </Card>
  );
}
