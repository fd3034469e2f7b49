/** Spend grouped by source, module, SKU or meter, and spend per day, each a chart with its figures. */
import { DataTable } from '../../components/DataTable';
import { BarChart } from '../../components/Chart';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';
import { amountOf, money, MoneyFields } from './money';

export const BreakdownFields = graphql(
  `
    fragment ConsoleBillingBreakdown on BillingBreakdown {
      total {
        ...ConsoleMoney
      }
      rows {
        key
        skuId
        quantity
        unit
        amount {
          ...ConsoleMoney
        }
      }
    }
  `,
  [MoneyFields],
);

export const DailyFields = graphql(
  `
    fragment ConsoleBillingDaily on BillingDaily {
      total {
        ...ConsoleMoney
      }
      timeZone
      series {
        date
        total {
          ...ConsoleMoney
        }
      }
    }
  `,
  [MoneyFields],
);

export function BreakdownView({
  breakdown,
  groupBy,
}: {
  breakdown: FragmentOf<typeof BreakdownFields>;
  groupBy: string;
}) {
  const b = readFragment(BreakdownFields, breakdown);
  return (
    <>
      <BarChart
        label={`Spend by ${groupBy.toLowerCase()}`}
        bars={b.rows.map((r) => ({ label: `${r.key || '(none)'} · ${r.skuId}`, value: Number(amountOf(r.amount)) }))}
      />
      <DataTable
        caption="Breakdown"
        rows={b.rows}
        rowKey={(r) => `${r.key}|${r.skuId}`}
        empty="Nothing metered in this period."
        columns={[
          { header: groupBy.toLowerCase(), cell: (r) => r.key || '(none)' },
          { header: 'SKU', cell: (r) => r.skuId, wide: true },
          { header: 'Quantity', cell: (r) => `${r.quantity} ${r.unit}` },
          { header: 'Amount', cell: (r) => <span className="money">{money(r.amount)}</span> },
        ]}
      />
      <p className="hint">Total {money(b.total)}</p>
    </>
  );
}

export function DailyView({ daily, days }: { daily: FragmentOf<typeof DailyFields>; days: string }) {
  const d = readFragment(DailyFields, daily);
  return (
    <>
      <BarChart
        label="Spend per day"
        bars={d.series.map((x) => ({ label: x.date.slice(5), value: Number(amountOf(x.total)) }))}
      />
      <p className="hint">
        Total {money(d.total)} over {days} days ({d.timeZone})
      </p>
    </>
  );
}
