/** The month to date: total, forecast, budget and metering state, and the per-SKU lines. */
import { DataTable } from '../../components/DataTable';
import { when } from '../../lib/format';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';
import { money, MoneyFields } from './money';

export const CurrentMonthFields = graphql(
  `
    fragment ConsoleBillingCurrent on BillingCurrent {
      asOf
      total {
        ...ConsoleMoney
      }
      period {
        start
        end
        timeZone
      }
      forecast {
        amount {
          ...ConsoleMoney
        }
        method
        description
      }
      budget {
        amount {
          ...ConsoleMoney
        }
        forecastPercent
        firedThresholds
      }
      metering {
        lastComputedAt
        pendingWindows
      }
      skus {
        skuId
        name
        unit
        quantity
        unitPrice {
          ...ConsoleMoney
        }
        amount {
          ...ConsoleMoney
        }
      }
    }
  `,
  [MoneyFields],
);

export function CurrentMonth({ current }: { current: FragmentOf<typeof CurrentMonthFields> }) {
  const c = readFragment(CurrentMonthFields, current);
  return (
    <>
      <dl className="stats" aria-label="This month">
        <div>
          <dt>Month to date</dt>
          <dd className="money" aria-label="Month to date amount">
            {money(c.total)}
          </dd>
        </div>
        <div>
          <dt>Forecast</dt>
          <dd className="money" title={c.forecast.description}>
            {money(c.forecast.amount)}
          </dd>
        </div>
        <div>
          <dt>Budget</dt>
          <dd className="money">
            {c.budget ? `${money(c.budget.amount)} (forecast ${c.budget.forecastPercent} %)` : 'none'}
          </dd>
        </div>
        <div>
          <dt>Metering</dt>
          <dd>
            {c.metering.pendingWindows
              ? `${c.metering.pendingWindows} windows pending`
              : `up to date ${when(c.metering.lastComputedAt)}`}
          </dd>
        </div>
      </dl>
      <DataTable
        caption="Current month by SKU"
        rows={c.skus}
        rowKey={(x) => x.skuId}
        empty="No usage metered this month yet."
        columns={[
          { header: 'SKU', cell: (x) => x.name },
          { header: 'Quantity', cell: (x) => `${x.quantity} ${x.unit}` },
          { header: 'Unit price', cell: (x) => money(x.unitPrice), wide: true },
          { header: 'Amount', cell: (x) => <span className="money">{money(x.amount)}</span> },
        ]}
      />
      <p className="hint">
        Period {when(c.period.start)} to {when(c.period.end)} ({c.period.timeZone}), as of {when(c.asOf)}.{' '}
        {c.forecast.description}
      </p>
    </>
  );
}
