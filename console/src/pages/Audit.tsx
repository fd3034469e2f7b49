/** Admin: the audit log (every mutation in the tenant), newest first, filtered by action, paged. */
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { DataTable } from '../components/DataTable';
import { TextField } from '../components/Field';
import { Page } from '../components/Page';
import { useDebounced } from '../components/useDebounced';
import { lower, when } from '../lib/format';
import { graphql } from '../lib/graphql';
import { hrefOf, typeWords } from '../lib/links';

const AuditQuery = graphql(`
  query ConsoleAuditLog($action: String, $after: String, $first: Int) {
    auditLog(action: $action, after: $after, first: $first) {
      edges {
        node {
          id
          action
          createdAt
          credentialKind
          targetType
          targetId
          actor {
            email
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export function Audit() {
  const [action, setAction] = useState('');
  const typed = useDebounced(action);
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors[cursors.length - 1] ?? null;
  const [result] = useQuery({
    query: AuditQuery,
    variables: { action: typed || null, after, first: 100 },
    requestPolicy: 'cache-and-network',
  });
  const page = result.data?.auditLog;
  return (
    <Page title="Audit log" error={result.error} loading={result.fetching && !result.data}>
      <div className="filters">
        <TextField
          label="Action"
          value={action}
          onChange={(v) => {
            setAction(v);
            setCursors([]);
          }}
          placeholder="e.g. approveProposal"
        />
      </div>
      <DataTable
        caption="Audit log"
        rows={page?.edges.map((e) => e.node)}
        rowKey={(r) => r.id}
        columns={[
          { header: 'When', cell: (r) => when(r.createdAt) },
          { header: 'Action', cell: (r) => <code>{r.action}</code> },
          { header: 'Actor', cell: (r) => r.actor?.email ?? '—' },
          { header: 'Credential', cell: (r) => lower(r.credentialKind), wide: true },
          { header: 'Target', cell: (r) => <AuditTarget type={r.targetType} id={r.targetId} /> },
        ]}
      />
      <div className="row-actions">
        <button
          type="button"
          className="plain"
          disabled={!cursors.length}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Newer
        </button>
        <button
          type="button"
          className="plain"
          disabled={!page?.pageInfo.hasNextPage}
          onClick={() => page?.pageInfo.endCursor && setCursors([...cursors, page.pageInfo.endCursor])}
        >
          Older
        </button>
      </div>
    </Page>
  );
}

/** The object a mutation changed, as words and its id, linked to where the console shows it. */
function AuditTarget({ type, id }: { type: string | null; id: string | null }) {
  if (!type) return <>—</>;
  const href = hrefOf(type, id);
  const text = (
    <>
      {typeWords(type)} {id && <code title={id}>{id.slice(0, 8)}</code>}
    </>
  );
  return href ? <Link href={href}>{text}</Link> : text;
}
