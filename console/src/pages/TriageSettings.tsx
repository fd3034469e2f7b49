/**
 * Triage settings: what counts as a change (the documented defaults and the tenant's own terms, which
 * admins edit here), the entity keys compared, and the confidence thresholds.
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { MutationForm, TextField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { graphql } from '../lib/graphql';

const SettingsQuery = graphql(`
  query ConsoleTriageSettings {
    triageSettings {
      changeTypes
      defaultChangeTypes
      entityKeys
      windowMinutes
      highThreshold
      mediumThreshold
    }
  }
`);
const SetChangeTypes = graphql(`
  mutation ConsoleSetTriageChangeTypes($changeTypes: [String!]!) {
    setTriageChangeTypes(changeTypes: $changeTypes) {
      changeTypes
    }
  }
`);

export function TriageSettings() {
  const me = useMe();
  const [result, refetch] = useQuery({ query: SettingsQuery });
  const [, save] = useMutation(SetChangeTypes);
  const s = result.data?.triageSettings;
  const [terms, setTerms] = useState('');
  useEffect(() => setTerms(s ? s.changeTypes.join(', ') : ''), [s]);
  return (
    <Page title="Triage settings" error={result.error} loading={result.fetching && !s}>
      {s && (
        <>
          <Card title="What counts as a change">
            <p>
              Built in: <code>{s.defaultChangeTypes.join(' ')}</code>
            </p>
            <p>Your own terms: {s.changeTypes.length ? <code>{s.changeTypes.join(' ')}</code> : 'none'}</p>
          </Card>
          <MutationForm
            title="Change terms"
            submitLabel="Save change terms"
            deniedBecause={adminOnly(me)}
            onSubmit={() => save({ changeTypes: terms.split(/[\s,]+/).filter(Boolean) })}
            onDone={() => refetch({ requestPolicy: 'network-only' })}
          >
            <TextField
              label="Own change terms"
              value={terms}
              onChange={setTerms}
              hint="Words (canary) or globs over the whole event type (*.toggled), separated by commas."
            />
          </MutationForm>
          <Card title="How causes are ranked">
            <p>
              Candidates from the {s.windowMinutes} minutes before an alert are ranked by what they share with it;
              confidence is high from a score of {s.highThreshold}, medium from {s.mediumThreshold}. Entity keys
              compared: <code>{s.entityKeys.join(' ')}</code>, plus the rule&apos;s dedup labels.
            </p>
          </Card>
        </>
      )}
    </Page>
  );
}
