/**
 * On an alert's page: why it did or didn't page (what muted it, its group and escalation policy, the
 * pages sent), and "Silence": one click silences alerts with its labels for two hours, or "Silence…"
 * opens the silence form with them to adjust first.
 */
import { useEffect, useRef } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link } from 'wouter';
import { ActionButton } from '../../components/ActionButton';
import { Badge, Card } from '../../components/Page';
import { graphql } from '../../lib/graphql';
import { labelsToMatcherText, parseMatcherText } from '../../lib/matchers';

const AlertPagingQuery = graphql(`
  query ConsoleAlertPagingReasons($id: ID!) {
    alert(id: $id) {
      id
      summary
      labels
      silence {
        id
        comment
        state
      }
      inhibitedBy {
        id
        summary
      }
      pagingExplanation {
        pages
        pagedCount
        summary
        reasons {
          kind
          message
          blocks
        }
      }
    }
  }
`);
const SilenceAlert = graphql(`
  mutation ConsoleSilenceAlert($input: CreateSilenceInput!) {
    createSilence(input: $input) {
      id
    }
  }
`);

export function AlertPaging({ alertId, version }: { alertId: string; version: string }) {
  // `version` (the alert's status and last change) refetches the panel when the alert changes.
  const [{ data, error }, refetch] = useQuery({
    query: AlertPagingQuery,
    variables: { id: alertId },
    requestPolicy: 'cache-and-network',
  });
  const [, silence] = useMutation(SilenceAlert);
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    refetch({ requestPolicy: 'network-only' });
  }, [version, refetch]);
  const a = data?.alert;
  if (error) return null;
  if (!a) return null;
  const matchers = labelsToMatcherText(a.labels);
  const e = a.pagingExplanation;
  return (
    <Card title="Why it did or didn't page">
      <p aria-label="Paging summary">
        <Badge value={e.pages ? 'pages' : 'pages no one'} /> {e.summary}
      </p>
      <ul className="reasons" aria-label="Paging reasons">
        {e.reasons.map((r, i) => (
          <li key={i}>
            <strong>{r.kind.toLowerCase().replace('_', ' ')}</strong>
            {r.blocks ? ' (keeps it from paging)' : ''}: {r.message}{' '}
            {r.kind === 'INHIBITION' && a.inhibitedBy && (
              <Link href={`/alerts/${a.inhibitedBy.id}`}>inhibiting alert</Link>
            )}
            {r.kind === 'SILENCE' && a.silence && <Link href="/silences?state=">silences</Link>}
          </li>
        ))}
      </ul>
      {matchers && (
        <div className="row-actions" role="group" aria-label="Silence this alert">
          <ActionButton
            run={() =>
              silence({
                input: {
                  matchers: parseMatcherText(matchers),
                  endsAt: new Date(Date.now() + 2 * 3600_000).toISOString(),
                  comment: `Silenced from the alert "${a.summary.slice(0, 200)}"`,
                },
              })
            }
            onDone={() => refetch({ requestPolicy: 'network-only' })}
          >
            Silence for 2 hours
          </ActionButton>
          <Link href={`/silences?matchers=${encodeURIComponent(matchers)}`}>Silence…</Link>
        </div>
      )}
    </Card>
  );
}
