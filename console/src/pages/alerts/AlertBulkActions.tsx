/**
 * The alerts list's multi-select actions: "Acknowledge selected" and "Resolve selected" run one bulk mutation
 * (acknowledgeAlerts / resolveAlerts) and show what happened to each alert that failed (another state, gone),
 * so one bad row loses nothing of the others; the rows that succeeded leave the selection.
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { ActionButton } from '../../components/ActionButton';
import { graphql } from '../../lib/graphql';

const AcknowledgeMany = graphql(`
  mutation ConsoleAcknowledgeAlerts($ids: [ID!]!) {
    acknowledgeAlerts(ids: $ids) {
      id
      ok
      code
      message
      alert {
        id
        status
      }
    }
  }
`);
const ResolveMany = graphql(`
  mutation ConsoleResolveAlerts($ids: [ID!]!) {
    resolveAlerts(ids: $ids) {
      id
      ok
      code
      message
      alert {
        id
        status
      }
    }
  }
`);

interface Outcome {
  verb: string;
  done: number;
  failed: Array<{ id: string; message: string }>;
}

export function AlertBulkActions({
  selected,
  nameOf,
  onChange,
}: {
  selected: ReadonlySet<string>;
  /** The alert's summary, to name a failed one. */
  nameOf: (id: string) => string;
  onChange: (next: Set<string>) => void;
}) {
  const [, acknowledge] = useMutation(AcknowledgeMany);
  const [, resolve] = useMutation(ResolveMany);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const none = selected.size === 0 ? 'Select alerts first.' : null;
  const ids = () => [...selected];
  const finish = (
    verb: string,
    results: ReadonlyArray<{ id: string; ok: boolean; message: string | null }> | undefined,
  ) => {
    if (!results) return;
    const failed = results.filter((x) => !x.ok).map((x) => ({ id: x.id, message: x.message ?? 'failed' }));
    setOutcome({ verb, done: results.length - failed.length, failed });
    onChange(new Set(failed.map((f) => f.id)));
  };
  return (
    <div className="bulk-actions" role="group" aria-label="Selected alerts">
      <span className="hint">{selected.size === 1 ? '1 selected' : `${selected.size} selected`}</span>
      <ActionButton
        run={async () => {
          const r = await acknowledge({ ids: ids() });
          finish('acknowledged', r.data?.acknowledgeAlerts);
          return r;
        }}
        deniedBecause={none}
      >
        Acknowledge selected
      </ActionButton>
      <ActionButton
        run={async () => {
          const r = await resolve({ ids: ids() });
          finish('resolved', r.data?.resolveAlerts);
          return r;
        }}
        deniedBecause={none}
      >
        Resolve selected
      </ActionButton>
      {outcome && (
        <div role="status" aria-label="Bulk result">
          <p>
            {outcome.done} {outcome.verb}
            {outcome.failed.length ? `, ${outcome.failed.length} failed:` : '.'}
          </p>
          {outcome.failed.length > 0 && (
            <ul aria-label="Failures">
              {outcome.failed.map((f) => (
                <li key={f.id}>
                  <strong>{nameOf(f.id)}</strong>: {f.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
