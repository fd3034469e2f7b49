/**
 * One timeline event, opened from triage evidence: its fields, labels and payload,
 * as data.
 */
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { Badge, Card, Page } from '../components/Page';
import { when } from '../lib/format';
import { graphql } from '../lib/graphql';

const EventQuery = graphql(`
  query ConsoleEvent($id: ID!) {
    event(id: $id) { id type source module severity summary labels payload receivedAt }
  }
`);

export function EventDetail({ params }: { params: { id: string } }) {
  const [result] = useQuery({ query: EventQuery, variables: { id: params.id } });
  const e = result.data?.event;
  return (
    <Page title={e ? `${e.type} from ${e.source}` : 'Event'} error={result.error} loading={result.fetching && !e} actions={<Link href="/">Timeline</Link>}>
      {e && (
        <Card title="Event">
          <dl>
            <dt>Id</dt>
            <dd><code>{e.id}</code></dd>
            <dt>Received</dt>
            <dd>{when(e.receivedAt)}</dd>
            <dt>Severity</dt>
            <dd><Badge value={e.severity} /></dd>
            <dt>Summary</dt>
            <dd>{e.summary ?? '—'}</dd>
          </dl>
          <h3>Labels</h3>
          <pre aria-label="Labels">{JSON.stringify(e.labels, null, 2)}</pre>
          <h3>Payload</h3>
          <pre aria-label="Payload">{JSON.stringify(e.payload, null, 2)}</pre>
        </Card>
      )}
    </Page>
  );
}
