/**
 * The home page, where the console opens: live alerts by severity and age (and how many nobody has
 * acknowledged), the noisiest sources and rules of the last 7 days, MTTA and MTTR per week for 8 weeks
 * (GraphQL alertOverview, computed from the alerts' timelines), proposals waiting for review, and who is
 * on call now (paging's onCall). Live: it refreshes when an alert changes.
 */
import { Link } from 'wouter';
import { BarChart, LineChart } from '../components/Chart';
import { DataTable } from '../components/DataTable';
import { Card, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { when } from '../lib/format';
import { graphql } from '../lib/graphql';

const HomeQuery = graphql(`
  query ConsoleHome {
    alertOverview {
      live {
        severity
        age
        live
        unacknowledged
      }
      noisiestSources(days: 7, first: 5) {
        source
        alerts
        events
      }
      noisiestRules(days: 7, first: 5) {
        ruleId
        ruleName
        alerts
        events
      }
      responseTimes(weeks: 8) {
        weekStart
        opened
        acknowledged
        mttaSeconds
        resolved
        mttrSeconds
      }
    }
    proposals(status: PROPOSED, first: 5) {
      edges {
        node {
          id
          title
          createdAt
          proposer {
            email
          }
          device {
            name
          }
        }
      }
    }
    onCall {
      schedule {
        id
        name
      }
      shift {
        end
        user {
          email
        }
      }
    }
  }
`);
const HomeAlertChanged = graphql(`
  subscription ConsoleHomeAlertChanged {
    alertChanged {
      change
    }
  }
`);

const AGES = ['UNDER_1H', 'UNDER_24H', 'UNDER_7D', 'OLDER'] as const;
const AGE_LABEL: Record<(typeof AGES)[number], string> = {
  UNDER_1H: '< 1 h',
  UNDER_24H: '1–24 h',
  UNDER_7D: '1–7 d',
  OLDER: '> 7 d',
};
const SEVERITIES = ['CRITICAL', 'WARNING', 'INFO'] as const;

const minutes = (s: number | null) => (s == null ? null : Math.round(s / 6) / 10);

export function Home() {
  const { result } = useLiveQuery({ query: HomeQuery, variables: {}, subscription: HomeAlertChanged });
  const o = result.data?.alertOverview;
  const cell = (sev: string, age: string) => o?.live.find((b) => b.severity === sev && b.age === age);
  const total = (k: 'live' | 'unacknowledged') => o?.live.reduce((n, b) => n + b[k], 0) ?? 0;
  const weeks = o?.responseTimes ?? [];
  const weekLabels = weeks.map((w) => new Date(w.weekStart).toISOString().slice(5, 10));
  return (
    <Page title="Home" error={result.error} loading={result.fetching && !result.data}>
      <div className="grid2">
        <Card title="Live alerts by severity and age">
          <p>
            <Link href="/alerts">{total('live')} not resolved</Link>, <strong>{total('unacknowledged')}</strong>{' '}
            unacknowledged.
          </p>
          <DataTable
            caption="Live alerts by severity and age"
            rows={SEVERITIES}
            rowKey={(s) => s}
            columns={[
              { header: 'Severity', cell: (s) => s.toLowerCase() },
              ...AGES.map((age) => ({
                header: AGE_LABEL[age],
                cell: (s: string) => {
                  const b = cell(s, age);
                  return b ? `${b.live} (${b.unacknowledged} unack.)` : '0';
                },
              })),
            ]}
          />
        </Card>
        <Card title="On call now">
          {result.data && result.data.onCall.length === 0 ? (
            <p>Nobody: no schedule has someone on call now.</p>
          ) : (
            <ul aria-label="On call now">
              {result.data?.onCall.map((c) => (
                <li key={c.schedule.id}>
                  {c.schedule.name}: <strong>{c.shift.user?.email ?? 'nobody'}</strong> until {when(c.shift.end)}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      <div className="grid2">
        <Card title="Noisiest sources, last 7 days">
          <BarChart
            label="Alerts opened per source, last 7 days"
            bars={o?.noisiestSources.map((x) => ({ label: x.source, value: x.alerts })) ?? []}
          />
        </Card>
        <Card title="Noisiest rules, last 7 days">
          <BarChart
            label="Alerts opened per rule, last 7 days"
            bars={o?.noisiestRules.map((x) => ({ label: x.ruleName, value: x.alerts })) ?? []}
          />
        </Card>
      </div>
      <Card title="MTTA and MTTR per week (minutes)">
        <LineChart
          label="Mean time to acknowledge and to resolve per week, minutes"
          time={false}
          categories={weekLabels}
          unit=" min"
          series={[
            { name: 'MTTA', points: weeks.map((w, i) => ({ x: i, y: minutes(w.mttaSeconds) })) },
            { name: 'MTTR', points: weeks.map((w, i) => ({ x: i, y: minutes(w.mttrSeconds) })) },
          ]}
        />
        <DataTable
          caption="Response times per week"
          rows={weeks}
          rowKey={(w) => w.weekStart}
          columns={[
            { header: 'Week of', cell: (w) => new Date(w.weekStart).toISOString().slice(0, 10) },
            { header: 'Opened', cell: (w) => w.opened },
            { header: 'MTTA (min)', cell: (w) => minutes(w.mttaSeconds) ?? '—' },
            { header: 'MTTR (min)', cell: (w) => minutes(w.mttrSeconds) ?? '—' },
            { header: 'Acknowledged', cell: (w) => w.acknowledged, wide: true },
            { header: 'Resolved', cell: (w) => w.resolved, wide: true },
          ]}
        />
      </Card>
      <Card title="Waiting for review">
        <DataTable
          caption="Proposals waiting for review"
          rows={result.data?.proposals.edges.map((e) => e.node)}
          rowKey={(p) => p.id}
          empty="No proposal waits for review."
          columns={[
            { header: 'Title', cell: (p) => <Link href="/proposals">{p.title}</Link> },
            { header: 'Device', cell: (p) => p.device?.name ?? '—' },
            { header: 'Proposer', cell: (p) => p.proposer.email },
            { header: 'Opened', cell: (p) => when(p.createdAt), wide: true },
          ]}
        />
      </Card>
    </Page>
  );
}
