/**
 * Billing: the month to date (total, forecast, budget, metering state, per-SKU lines), a breakdown by
 * source, module, SKU or meter, a daily chart, local GPUs versus the same hours on cloud SKUs (with the
 * inputs still missing), and the SKU catalogue with the tenant's prices. Admins override a SKU price,
 * set the budget and the local-GPU inputs, and re-meter; members read. Amounts are exact decimal
 * strings from the server, shown as they come. Each section is a component with its fragment
 * (`billing/*.tsx`); this page runs the queries and hands each section its piece.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { SelectField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { graphql } from '../lib/graphql';
import { CurrentMonth, CurrentMonthFields } from './billing/CurrentMonth';
import { BreakdownFields, BreakdownView, DailyFields, DailyView } from './billing/Spend';
import { LocalGpuFields, LocalGpuView, SettingsFields, SettingsForm } from './billing/LocalGpu';
import { BudgetCard, BudgetFields } from './billing/Budget';
import { MeterFields, MetersCard } from './billing/Meters';
import { SkuFields, SkusCard } from './billing/Skus';

const BillingQuery = graphql(
  `
    query ConsoleBilling {
      billing {
        current {
          ...ConsoleBillingCurrent
          ...ConsoleBillingBudget
        }
        settings {
          ...ConsoleBillingSettings
        }
        skus {
          ...ConsoleBillingSku
        }
        meters {
          ...ConsoleBillingMeter
        }
      }
    }
  `,
  [CurrentMonthFields, BudgetFields, SettingsFields, SkuFields, MeterFields],
);
const BreakdownQuery = graphql(
  `
    query ConsoleBillingBreakdown($groupBy: BillingGroupBy!) {
      billing {
        breakdown(groupBy: $groupBy) {
          ...ConsoleBillingBreakdown
        }
      }
    }
  `,
  [BreakdownFields],
);
const DailyQuery = graphql(
  `
    query ConsoleBillingDaily($days: Int) {
      billing {
        daily(days: $days) {
          ...ConsoleBillingDaily
        }
      }
    }
  `,
  [DailyFields],
);
const LocalGpuQuery = graphql(
  `
    query ConsoleBillingLocalGpu {
      billing {
        localGpu {
          ...ConsoleBillingLocalGpu
        }
      }
    }
  `,
  [LocalGpuFields],
);
const Recompute = graphql(`
  mutation ConsoleRecomputeUsage($from: String) {
    recomputeUsage(from: $from)
  }
`);

const GROUPS = ['SOURCE', 'MODULE', 'SKU', 'METER'] as const;

export function Billing() {
  const me = useMe();
  const denied = adminOnly(me);
  const [result, refetch] = useQuery({ query: BillingQuery, requestPolicy: 'cache-and-network' });
  const [groupBy, setGroupBy] = useState<(typeof GROUPS)[number]>('SOURCE');
  const [days, setDays] = useState('30');
  const [breakdown, refetchBreakdown] = useQuery({
    query: BreakdownQuery,
    variables: { groupBy },
    requestPolicy: 'cache-and-network',
  });
  const [daily, refetchDaily] = useQuery({
    query: DailyQuery,
    variables: { days: Number(days) },
    requestPolicy: 'cache-and-network',
  });
  const [local, refetchLocal] = useQuery({ query: LocalGpuQuery, requestPolicy: 'cache-and-network' });
  const reload = () => {
    const o = { requestPolicy: 'network-only' as const };
    refetch(o);
    refetchBreakdown(o);
    refetchDaily(o);
    refetchLocal(o);
  };
  const [, recompute] = useMutation(Recompute);
  const [note, setNote] = useState<string | null>(null);
  const [span, setSpan] = useState<'day' | 'month'>('day');
  const b = result.data?.billing;

  return (
    <Page
      title="Billing"
      error={result.error}
      loading={result.fetching && !result.data}
      actions={
        <>
          <SelectField
            label="Re-meter"
            value={span}
            onChange={setSpan}
            options={[
              { value: 'day', label: 'the last 24 hours' },
              { value: 'month', label: 'the whole month' },
            ]}
          />
          <ActionButton
            run={async () => {
              // The last 24 hours: from the start of the hour 24 hours ago (the windows are hourly).
              const from =
                span === 'day'
                  ? new Date(Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000).toISOString()
                  : undefined;
              const r = await recompute(from ? { from } : {});
              if (r.data) setNote(`${r.data.recomputeUsage} hourly windows queued for metering.`);
              return r;
            }}
            deniedBecause={denied}
            onDone={reload}
          >
            Recompute usage
          </ActionButton>
        </>
      }
    >
      {note && (
        <p role="status" className="hint">
          {note}{' '}
          <button type="button" className="plain" onClick={reload}>
            Refresh
          </button>
        </p>
      )}
      {b && <CurrentMonth current={b.current} />}

      <Card title="Breakdown">
        <SelectField label="Group by" value={groupBy} onChange={setGroupBy} options={GROUPS} />
        {breakdown.data && <BreakdownView breakdown={breakdown.data.billing.breakdown} groupBy={groupBy} />}
      </Card>

      <Card title="Daily">
        <SelectField
          label="Days"
          value={days}
          onChange={setDays}
          options={[
            { value: '7', label: '7 days' },
            { value: '30', label: '30 days' },
            { value: '90', label: '90 days' },
          ]}
        />
        {daily.data && <DailyView daily={daily.data.billing.daily} days={days} />}
      </Card>

      <Card title="Local GPUs versus cloud">
        {local.data && <LocalGpuView local={local.data.billing.localGpu} />}
        <SettingsForm settings={b?.settings} denied={denied} onDone={reload} />
      </Card>

      <BudgetCard current={b?.current} denied={denied} onDone={reload} />
      <MetersCard meters={b?.meters} denied={denied} onDone={reload} />
      <SkusCard skus={b?.skus} denied={denied} onDone={reload} />
    </Page>
  );
}
