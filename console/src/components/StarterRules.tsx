/**
 * The starter-rules offer a fresh tenant's admin sees on first sign-in, above every page: critical GPU
 * events, a failing integration and a spent budget page no one until a rule matches them. One click adds
 * them all; "Not now" dismisses the offer for the whole tenant. The server decides whether it is offered
 * (no rule yet, nobody answered), so it is never shown again once answered or once rules exist.
 */
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link } from 'wouter';
import { ActionButton } from './ActionButton';
import { graphql } from '../lib/graphql';

const StarterRulesQuery = graphql(`
  query ConsoleStarterRules {
    starterRules {
      offered
      rules {
        key
        name
        description
        enabled
      }
    }
  }
`);
const AddStarterRules = graphql(`
  mutation ConsoleAddStarterRules {
    addStarterRules {
      offered
      rules {
        key
        name
        enabled
        ruleId
      }
    }
  }
`);
const DismissStarterRules = graphql(`
  mutation ConsoleDismissStarterRules {
    dismissStarterRules {
      offered
    }
  }
`);

/** Mutations that make rules: the Alert rules page's cached lists are fetched again. */
const RULES_CHANGED = { additionalTypenames: ['AlertRule', 'SuggestedAlertRule', 'StarterRules'] };

export function StarterRulesOffer() {
  // Any change to rules (a rule created on the Rules page) fetches the offer again: it ends once rules exist.
  const context = useMemo(() => ({ additionalTypenames: ['AlertRule'] }), []);
  const [result] = useQuery({ query: StarterRulesQuery, context });
  const [, add] = useMutation(AddStarterRules);
  const [, dismiss] = useMutation(DismissStarterRules);
  const [added, setAdded] = useState<string[] | null>(null);
  if (added) {
    if (!added.length) return null;
    return (
      <p role="status" className="offer">
        Added {added.length} starter rules: {added.join(', ')}. <Link href="/rules">See them under Alert rules</Link>.{' '}
        <button type="button" className="plain" onClick={() => setAdded([])}>
          Close
        </button>
      </p>
    );
  }
  const offer = result.data?.starterRules;
  if (!offer?.offered) return null;
  return (
    <section className="card offer" aria-label="Starter rules">
      <h2>Page someone when GPUs or the budget need it</h2>
      <p>
        This tenant has no alert rules yet, so these events open no alert. Add the starter rules in one step (you can
        edit or turn off each one under Alert rules):
      </p>
      <ul>
        {offer.rules.map((r) => (
          <li key={r.key}>
            <strong>{r.name}</strong>: {r.description}
          </li>
        ))}
      </ul>
      <div className="row-actions">
        <ActionButton
          variant="primary"
          run={async () => {
            const r = await add({}, RULES_CHANGED);
            if (r.data) setAdded(r.data.addStarterRules.rules.filter((x) => x.enabled).map((x) => x.name));
            return r;
          }}
        >
          Add starter rules
        </ActionButton>
        <ActionButton run={() => dismiss({}, RULES_CHANGED)}>Not now</ActionButton>
      </div>
    </section>
  );
}
