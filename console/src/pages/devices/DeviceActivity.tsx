/**
 * The device page's recent alerts and recent events (the device's own connections, newest first).
 * Live: the alerts refetch on alertChanged for this device; the events on deviceChanged for it (rule
 * evaluation links new events to their device and announces it as `events_linked`).
 */
import { Link } from 'wouter';
import { Ago } from '../../components/Ago';
import { DataTable } from '../../components/DataTable';
import { Badge, Card } from '../../components/Page';
import { ErrorView } from '../../components/ErrorView';
import { useLiveQuery } from '../../components/useLive';
import { graphql } from '../../lib/graphql';

/** Rows per table: the latest few; the alert and event pages have the rest. */
const RECENT = 10;

const DeviceAlertsQuery = graphql(`
  query ConsoleDeviceAlerts($id: ID!, $first: Int!) {
    device(id: $id) {
      id
      alerts(first: $first) {
        totalCount
        edges {
          node {
            id
            status
            severity
            summary
            firstSeenAt
          }
        }
      }
    }
  }
`);
const DeviceAlertChanged = graphql(`
  subscription ConsoleDeviceAlertChanged($filter: AlertChangedFilter) {
    alertChanged(filter: $filter) {
      change
      alert {
        id
      }
    }
  }
`);
const DeviceEventsQuery = graphql(`
  query ConsoleDeviceEvents($id: ID!, $first: Int!) {
    device(id: $id) {
      id
      events(first: $first) {
        totalCount
        edges {
          node {
            id
            type
            severity
            summary
            receivedAt
          }
        }
      }
    }
  }
`);
const DeviceActivityChanged = graphql(`
  subscription ConsoleDeviceActivityChanged($id: ID) {
    deviceChanged(id: $id) {
      id
      change
    }
  }
`);

function shown(n: number, total: number | undefined, what: string): string | undefined {
  return total !== undefined && total > n ? `The latest ${n} of ${total} ${what}.` : undefined;
}

export function DeviceRecentAlerts({ deviceId }: { deviceId: string }) {
  const { result } = useLiveQuery({
    query: DeviceAlertsQuery,
    variables: { id: deviceId, first: RECENT },
    subscription: DeviceAlertChanged,
    subscriptionVariables: { filter: { deviceId } },
  });
  const conn = result.data?.device.alerts;
  const rows = conn?.edges.map((e) => e.node);
  const more = rows && shown(rows.length, conn?.totalCount, 'alerts');
  return (
    <Card title="Recent alerts">
      {result.error && <ErrorView error={result.error} />}
      <DataTable
        caption="Device alerts"
        rows={rows}
        rowKey={(a) => a.id}
        empty="No alerts about this device."
        columns={[
          { header: 'Status', cell: (a) => <Badge value={a.status} /> },
          { header: 'Severity', cell: (a) => <Badge value={a.severity} /> },
          { header: 'Summary', cell: (a) => <Link href={`/alerts/${a.id}`}>{a.summary}</Link> },
          { header: 'Age', cell: (a) => <Ago at={a.firstSeenAt} /> },
        ]}
      />
      {more && <p className="hint">{more}</p>}
    </Card>
  );
}

export function DeviceRecentEvents({ deviceId }: { deviceId: string }) {
  const { result } = useLiveQuery({
    query: DeviceEventsQuery,
    variables: { id: deviceId, first: RECENT },
    subscription: DeviceActivityChanged,
    subscriptionVariables: { id: deviceId },
  });
  const conn = result.data?.device.events;
  const rows = conn?.edges.map((e) => e.node);
  const more = rows && shown(rows.length, conn?.totalCount, 'events');
  return (
    <Card title="Recent events">
      {result.error && <ErrorView error={result.error} />}
      <DataTable
        caption="Device events"
        rows={rows}
        rowKey={(e) => e.id}
        empty="No events from this device yet."
        columns={[
          { header: 'Type', cell: (e) => <Link href={`/events/${e.id}`}>{e.type}</Link> },
          { header: 'Severity', cell: (e) => <Badge value={e.severity} /> },
          { header: 'Summary', cell: (e) => e.summary ?? '', wide: true },
          { header: 'Time', cell: (e) => <Ago at={e.receivedAt} /> },
        ]}
      />
      {more && <p className="hint">{more}</p>}
    </Card>
  );
}
