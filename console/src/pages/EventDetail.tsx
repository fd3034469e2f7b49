/** One event at its own URL (/events/:id): its facts, labels, pretty-printed payload, the alerts it opened, its device. */
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { DataTable } from '../components/DataTable';
import { Badge, Card, Page } from '../components/Page';
import { CopyButton } from '../components/CopyButton';
import { LabelList } from '../components/Labels';
import { json, lower, when } from '../lib/format';
import { graphql } from '../lib/graphql';

const EventQuery = graphql(`
  query ConsoleEvent($id: ID!) {
    event(id: $id) {
      id
      type
      source
      module
      summary
      severity
      labels
      payload
      receivedAt
      receivedVia
      evaluatedAt
      evaluationError
      device {
        id
        name
        site
        role
      }
      alerts {
        id
        summary
        status
        severity
        lastSeenAt
      }
    }
  }
`);

export function EventDetail({ params }: { params: { id: string } }) {
  const [result] = useQuery({ query: EventQuery, variables: { id: params.id }, requestPolicy: 'cache-and-network' });
  const e = result.data?.event;
  const payload = e ? json(e.payload) : '';
  return (
    <Page
      title={e ? e.summary || e.type : 'Event'}
      error={result.error}
      loading={result.fetching && !e}
      actions={<Link href="/timeline">Timeline</Link>}
    >
      {e && (
        <>
          <Card title={`${e.type} from ${e.source}`}>
            <dl className="facts">
              <dt>Type</dt>
              <dd>
                <code>{e.type}</code>
              </dd>
              <dt>Severity</dt>
              <dd>
                <Badge value={e.severity} />
              </dd>
              <dt>Source</dt>
              <dd>{e.source}</dd>
              <dt>Module</dt>
              <dd>{e.module ?? '—'}</dd>
              <dt>Received</dt>
              <dd>
                {when(e.receivedAt)} via {lower(e.receivedVia)}
              </dd>
              <dt>Rules</dt>
              <dd>
                {e.evaluationError
                  ? `evaluation failed: ${e.evaluationError}`
                  : e.evaluatedAt
                    ? `evaluated ${when(e.evaluatedAt)}`
                    : 'not evaluated yet'}
              </dd>
              <dt>Device</dt>
              <dd>{e.device ? <Link href={`/devices/${e.device.id}`}>{e.device.name}</Link> : '—'}</dd>
              <dt>Labels</dt>
              <dd>
                <LabelList labels={e.labels} name="Event labels" />
              </dd>
              <dt>Id</dt>
              <dd>
                <code>{e.id}</code>
              </dd>
            </dl>
          </Card>
          <Card title="Payload">
            <pre aria-label="Event payload">{payload}</pre>
            <CopyButton text={payload} label="Copy payload" />
          </Card>
          <Card title="Alerts">
            <DataTable
              caption="Alerts of this event"
              rows={e.alerts}
              rowKey={(a) => a.id}
              empty="This event opened no alert: no enabled alert rule matched it."
              columns={[
                { header: 'Summary', cell: (a) => <Link href={`/alerts/${a.id}`}>{a.summary}</Link> },
                { header: 'Status', cell: (a) => <Badge value={a.status} /> },
                { header: 'Severity', cell: (a) => <Badge value={a.severity} /> },
                { header: 'Last seen', cell: (a) => when(a.lastSeenAt) },
              ]}
            />
          </Card>
        </>
      )}
    </Page>
  );
}
