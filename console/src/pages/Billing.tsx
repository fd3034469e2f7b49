/**
 * Billing: the month to date (total, forecast, budget, metering state, per-SKU lines), a breakdown by
 * source, module, SKU or meter, a daily chart, local GPUs versus the same hours on cloud SKUs (with the
 * inputs still missing), and the SKU catalogue with the tenant's prices. Admins override a SKU price,
 * set the budget and the local-GPU inputs, and re-meter; members read. Amounts are exact decimal
 * strings from the server, shown as they come.
 */
import { useState } from 'react';
import { gql, useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { BarChart } from '../components/Chart';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';

interface Money {
  amount: string;
  currency: string;
}
interface Sku {
  id: string;
  name: string;
  kind: 'METERED' | 'REFERENCE';
  unit: string;
  meter: string;
  gpuModel: string | null;
  listPrice: Money;
  unitPrice: Money;
  overridden: boolean;
  custom: boolean;
  history: { unitPrice: Money; effectiveFrom: string; createdAt: string }[];
}
interface Current {
  asOf: string;
  total: Money;
  period: { start: string; end: string; timeZone: string };
  forecast: { amount: Money; method: string; description: string };
  budget: { amount: Money; forecastPercent: string; firedThresholds: number[] } | null;
  metering: { lastComputedAt: string | null; pendingWindows: number };
  skus: { skuId: string; name: string; unit: string; quantity: string; unitPrice: Money; amount: Money }[];
}

interface Meter {
  id: string;
  slug: string;
  typeGlob: string;
  aggregation: string;
  valuePath: string | null;
  groupBy: string | null;
  unit: string;
  unitPrice: string;
  skuId: string;
}

const BillingQuery = gql<{ billing: { current: Current; settings: { currency: string; timeZone: string; pricePerKwh: Money | null; gpuAmortizationPerHour: Money | null }; skus: Sku[]; meters: Meter[] } }>`
  query ConsoleBilling {
    billing {
      current {
        asOf total { amount currency } period { start end timeZone }
        forecast { amount { amount currency } method description }
        budget { amount { amount currency } forecastPercent firedThresholds }
        metering { lastComputedAt pendingWindows }
        skus { skuId name unit quantity unitPrice { amount currency } amount { amount currency } }
      }
      settings { currency timeZone pricePerKwh { amount currency } gpuAmortizationPerHour { amount currency } }
      skus { id name kind unit meter gpuModel listPrice { amount currency } unitPrice { amount currency } overridden custom history { unitPrice { amount currency } effectiveFrom createdAt } }
      meters { id slug typeGlob aggregation valuePath groupBy unit unitPrice skuId }
    }
  }
`;
const CreateMeter = gql<unknown, { input: Record<string, string> }>`
  mutation ConsoleCreateMeter($input: CreateMeterInput!) { createMeter(input: $input) { id slug } }
`;
const DeleteMeter = gql<unknown, { id: string }>`
  mutation ConsoleDeleteMeter($id: ID!) { deleteMeter(id: $id) { id } }
`;
const BreakdownQuery = gql<{ billing: { breakdown: { total: Money; rows: { key: string; skuId: string; quantity: string; unit: string; amount: Money }[] } } }, { groupBy: string }>`
  query ConsoleBillingBreakdown($groupBy: BillingGroupBy!) {
    billing { breakdown(groupBy: $groupBy) { total { amount currency } rows { key skuId quantity unit amount { amount currency } } } }
  }
`;
const DailyQuery = gql<{ billing: { daily: { total: Money; timeZone: string; series: { date: string; total: Money }[] } } }, { days: number }>`
  query ConsoleBillingDaily($days: Int) {
    billing { daily(days: $days) { total { amount currency } timeZone series { date total { amount currency } } } }
  }
`;
const LocalGpuQuery = gql<{
  billing: {
    localGpu: {
      missing: { input: string; detail: string }[];
      models: { model: string; gpuHours: string; energyKwh: string; localEnergy: Money; localAmortization: Money; localTotal: Money; cloudSkuId: string | null; cloudUnitPrice: Money | null; cloudTotal: Money | null; saving: Money | null }[];
      totals: { gpuHours: string; comparedGpuHours: string; energyKwh: string; localTotal: Money; cloudTotal: Money; saving: Money };
    };
  };
}>`
  query ConsoleBillingLocalGpu {
    billing {
      localGpu {
        missing { input detail }
        models { model gpuHours energyKwh localEnergy { amount currency } localAmortization { amount currency } localTotal { amount currency } cloudSkuId cloudUnitPrice { amount currency } cloudTotal { amount currency } saving { amount currency } }
        totals { gpuHours comparedGpuHours energyKwh localTotal { amount currency } cloudTotal { amount currency } saving { amount currency } }
      }
    }
  }
`;
const SetSkuPrice = gql<unknown, { input: { skuId: string; unitPrice: string; effectiveFrom?: string } }>`
  mutation ConsoleSetSkuPrice($input: SetSkuPriceInput!) { setSkuPrice(input: $input) { id unitPrice { amount currency } overridden } }
`;
const SetBudget = gql<unknown, { input: { amount: string } }>`
  mutation ConsoleSetBudget($input: SetBudgetInput!) { setBudget(input: $input) { month amount { amount currency } } }
`;
const DeleteBudget = gql<unknown, Record<string, never>>`
  mutation ConsoleDeleteBudget { deleteBudget }
`;
const UpdateSettings = gql<unknown, { input: Record<string, string> }>`
  mutation ConsoleUpdateBillingSettings($input: BillingSettingsInput!) { updateBillingSettings(input: $input) { currency timeZone } }
`;
const Recompute = gql<{ recomputeUsage: number }, { from?: string }>`
  mutation ConsoleRecomputeUsage($from: String) { recomputeUsage(from: $from) }
`;

export const money = (m: Money | null | undefined) => (m ? `${m.amount} ${m.currency}` : '—');
const GROUPS = ['SOURCE', 'MODULE', 'SKU', 'METER'] as const;

export function Billing() {
  const me = useMe();
  const denied = adminOnly(me);
  const [result, refetch] = useQuery({ query: BillingQuery, requestPolicy: 'cache-and-network' });
  const [groupBy, setGroupBy] = useState<(typeof GROUPS)[number]>('SOURCE');
  const [days, setDays] = useState('30');
  const [breakdown, refetchBreakdown] = useQuery({ query: BreakdownQuery, variables: { groupBy }, requestPolicy: 'cache-and-network' });
  const [daily, refetchDaily] = useQuery({ query: DailyQuery, variables: { days: Number(days) }, requestPolicy: 'cache-and-network' });
  const [local, refetchLocal] = useQuery({ query: LocalGpuQuery, requestPolicy: 'cache-and-network' });
  const reload = () => {
    const o = { requestPolicy: 'network-only' as const };
    refetch(o);
    refetchBreakdown(o);
    refetchDaily(o);
    refetchLocal(o);
  };
  const [, setSkuPrice] = useMutation(SetSkuPrice);
  const [, setBudget] = useMutation(SetBudget);
  const [, deleteBudget] = useMutation(DeleteBudget);
  const [, updateSettings] = useMutation(UpdateSettings);
  const [, recompute] = useMutation(Recompute);
  const [, createMeter] = useMutation(CreateMeter);
  const [, deleteMeter] = useMutation(DeleteMeter);
  const [meter, setMeter] = useState({ slug: '', typeGlob: '', aggregation: 'SUM', valuePath: '', groupBy: '', unitPrice: '' });
  const [price, setPrice] = useState({ skuId: '', unitPrice: '', effectiveFrom: '' });
  const [budget, setBudgetAmount] = useState('');
  const [settings, setSettings] = useState({ pricePerKwh: '', gpuAmortizationPerHour: '', currency: '', timeZone: '' });
  const [note, setNote] = useState<string | null>(null);
  const [span, setSpan] = useState<'day' | 'month'>('day');

  const b = result.data?.billing;
  const c = b?.current;
  const skus = b?.skus ?? [];
  const l = local.data?.billing.localGpu;

  return (
    <Page
      title="Billing"
      error={result.error}
      loading={result.fetching && !result.data}
      actions={
        <>
        <SelectField label="Re-meter" value={span} onChange={setSpan} options={[{ value: 'day', label: 'the last 24 hours' }, { value: 'month', label: 'the whole month' }]} />
        <ActionButton
          run={async () => {
            // The last 24 hours: from the start of the hour 24 hours ago (the windows are hourly).
            const from = span === 'day' ? new Date(Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000).toISOString() : undefined;
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
      {c && (
        <dl className="stats" aria-label="This month">
          <div>
            <dt>Month to date</dt>
            <dd className="money" aria-label="Month to date amount">{money(c.total)}</dd>
          </div>
          <div>
            <dt>Forecast</dt>
            <dd className="money" title={c.forecast.description}>{money(c.forecast.amount)}</dd>
          </div>
          <div>
            <dt>Budget</dt>
            <dd className="money">{c.budget ? `${money(c.budget.amount)} (forecast ${c.budget.forecastPercent} %)` : 'none'}</dd>
          </div>
          <div>
            <dt>Metering</dt>
            <dd>{c.metering.pendingWindows ? `${c.metering.pendingWindows} windows pending` : `up to date ${when(c.metering.lastComputedAt)}`}</dd>
          </div>
        </dl>
      )}
      {c && (
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
      )}
      {c && <p className="hint">Period {when(c.period.start)} to {when(c.period.end)} ({c.period.timeZone}), as of {when(c.asOf)}. {c.forecast.description}</p>}

      <Card title="Breakdown">
        <SelectField label="Group by" value={groupBy} onChange={setGroupBy} options={GROUPS} />
        {breakdown.data && (
          <>
            <BarChart label={`Spend by ${groupBy.toLowerCase()}`} bars={breakdown.data.billing.breakdown.rows.map((r) => ({ label: `${r.key || '(none)'} · ${r.skuId}`, value: Number(r.amount.amount) }))} />
            <DataTable
              caption="Breakdown"
              rows={breakdown.data.billing.breakdown.rows}
              rowKey={(r) => `${r.key}|${r.skuId}`}
              empty="Nothing metered in this period."
              columns={[
                { header: groupBy.toLowerCase(), cell: (r) => r.key || '(none)' },
                { header: 'SKU', cell: (r) => r.skuId, wide: true },
                { header: 'Quantity', cell: (r) => `${r.quantity} ${r.unit}` },
                { header: 'Amount', cell: (r) => <span className="money">{money(r.amount)}</span> },
              ]}
            />
            <p className="hint">Total {money(breakdown.data.billing.breakdown.total)}</p>
          </>
        )}
      </Card>

      <Card title="Daily">
        <SelectField label="Days" value={days} onChange={setDays} options={[{ value: '7', label: '7 days' }, { value: '30', label: '30 days' }, { value: '90', label: '90 days' }]} />
        {daily.data && (
          <>
            <BarChart label="Spend per day" bars={daily.data.billing.daily.series.map((d) => ({ label: d.date.slice(5), value: Number(d.total.amount) }))} />
            <p className="hint">
              Total {money(daily.data.billing.daily.total)} over {days} days ({daily.data.billing.daily.timeZone})
            </p>
          </>
        )}
      </Card>

      <Card title="Local GPUs versus cloud">
        {l && (
          <>
            {l.missing.length > 0 && (
              <ul className="hint" aria-label="Missing inputs">
                {l.missing.map((m) => (
                  <li key={m.input}>
                    <strong>{m.input}</strong>: {m.detail}
                  </li>
                ))}
              </ul>
            )}
            <DataTable
              caption="Local GPU cost by model"
              rows={l.models}
              rowKey={(m) => m.model}
              empty="No GPU telemetry in this period."
              columns={[
                { header: 'Model', cell: (m) => m.model },
                { header: 'GPU-hours', cell: (m) => m.gpuHours },
                { header: 'Energy', cell: (m) => `${m.energyKwh} kWh`, wide: true },
                { header: 'Local', cell: (m) => <span className="money" title={`energy ${money(m.localEnergy)} + amortization ${money(m.localAmortization)}`}>{money(m.localTotal)}</span> },
                { header: 'Cloud', cell: (m) => (m.cloudTotal ? `${money(m.cloudTotal)} (${m.cloudSkuId} at ${money(m.cloudUnitPrice)})` : 'no cloud SKU') },
                { header: 'Saving', cell: (m) => <span className="money">{money(m.saving)}</span> },
              ]}
            />
            <p className="hint">
              {l.totals.gpuHours} GPU-hours, {l.totals.energyKwh} kWh: local {money(l.totals.localTotal)}; the {l.totals.comparedGpuHours} compared GPU-hours on cloud {money(l.totals.cloudTotal)}; saving {money(l.totals.saving)}.
            </p>
          </>
        )}
        <MutationForm
          title="Billing settings"
          submitLabel="Save settings"
          deniedBecause={denied}
          onSubmit={() => {
            const input: Record<string, string> = {};
            if (settings.pricePerKwh) input.pricePerKwh = settings.pricePerKwh;
            if (settings.gpuAmortizationPerHour) input.gpuAmortizationPerHour = settings.gpuAmortizationPerHour;
            if (settings.currency) input.currency = settings.currency;
            if (settings.timeZone) input.timeZone = settings.timeZone;
            return updateSettings({ input });
          }}
          onDone={reload}
        >
          <TextField label="Energy price per kWh" value={settings.pricePerKwh} onChange={(pricePerKwh) => setSettings({ ...settings, pricePerKwh })} placeholder={b?.settings.pricePerKwh?.amount ?? 'not set'} />
          <TextField label="Amortization per GPU-hour" value={settings.gpuAmortizationPerHour} onChange={(gpuAmortizationPerHour) => setSettings({ ...settings, gpuAmortizationPerHour })} placeholder={b?.settings.gpuAmortizationPerHour?.amount ?? 'not set'} />
          <TextField label="Currency" value={settings.currency} onChange={(currency) => setSettings({ ...settings, currency })} placeholder={b?.settings.currency} />
          <TextField label="Billing time zone" value={settings.timeZone} onChange={(timeZone) => setSettings({ ...settings, timeZone })} placeholder={b?.settings.timeZone} />
        </MutationForm>
      </Card>

      <Card title="Budget">
        <MutationForm title="Monthly budget" submitLabel="Set budget" deniedBecause={denied} onSubmit={() => setBudget({ input: { amount: budget } })} onDone={reload}>
          <TextField label={`Budget (${b?.settings.currency ?? 'currency'})`} value={budget} onChange={setBudgetAmount} placeholder={c?.budget?.amount.amount ?? 'none'} required />
        </MutationForm>
        <ActionButton variant="danger" run={() => deleteBudget({})} deniedBecause={denied ?? (c?.budget ? null : 'No budget is set.')} onDone={reload}>
          Remove budget
        </ActionButton>
      </Card>

      <Card title="Meters">
        <DataTable
          caption="Meters"
          rows={b?.meters}
          rowKey={(m) => m.id}
          columns={[
            { header: 'Meter', cell: (m) => m.slug },
            { header: 'Events', cell: (m) => <code>{m.typeGlob}</code> },
            { header: 'Measure', cell: (m) => `${m.aggregation.toLowerCase()}${m.valuePath ? ` of ${m.valuePath}` : ''}${m.groupBy ? ` per ${m.groupBy}` : ''}` },
            { header: 'Price', cell: (m) => `${m.unitPrice} per ${m.unit}`, wide: true },
            {
              header: 'Actions',
              cell: (m) => (
                <ActionButton variant="danger" confirm={`Delete the meter ${m.slug}?`} run={() => deleteMeter({ id: m.id })} deniedBecause={denied} onDone={reload}>
                  Delete meter
                </ActionButton>
              ),
            },
          ]}
        />
        <MutationForm
          title="New meter"
          submitLabel="Create meter"
          deniedBecause={denied}
          onSubmit={() => {
            const input: Record<string, string> = { slug: meter.slug, typeGlob: meter.typeGlob, aggregation: meter.aggregation };
            if (meter.valuePath) input.valuePath = meter.valuePath;
            if (meter.groupBy) input.groupBy = meter.groupBy;
            if (meter.unitPrice) input.unitPrice = meter.unitPrice;
            return createMeter({ input });
          }}
          onDone={reload}
        >
          <TextField label="Meter slug" value={meter.slug} onChange={(slug) => setMeter({ ...meter, slug })} required />
          <TextField label="Event type" value={meter.typeGlob} onChange={(typeGlob) => setMeter({ ...meter, typeGlob })} placeholder="cloud.cost" required />
          <SelectField label="Aggregation" value={meter.aggregation} onChange={(aggregation) => setMeter({ ...meter, aggregation })} options={['SUM', 'COUNT', 'AVG', 'MIN', 'MAX', 'LATEST']} />
          <TextField label="Value path" value={meter.valuePath} onChange={(valuePath) => setMeter({ ...meter, valuePath })} placeholder="$.cost" />
          <TextField label="Per label" value={meter.groupBy} onChange={(groupBy) => setMeter({ ...meter, groupBy })} />
          <TextField label="Price per unit" value={meter.unitPrice} onChange={(unitPrice) => setMeter({ ...meter, unitPrice })} placeholder="1" />
        </MutationForm>
      </Card>

      <Card title="SKUs and prices">
        <DataTable
          caption="SKUs"
          rows={skus}
          rowKey={(x) => x.id}
          columns={[
            { header: 'SKU', cell: (x) => <span>{x.name} <small className="hint">{x.id}</small></span> },
            { header: 'Kind', cell: (x) => (x.kind === 'REFERENCE' ? `cloud reference${x.gpuModel ? ` (${x.gpuModel})` : ''}` : 'metered'), wide: true },
            { header: 'Unit', cell: (x) => x.unit, wide: true },
            { header: 'List price', cell: (x) => money(x.listPrice), wide: true },
            { header: 'Price', cell: (x) => <span className="money">{money(x.unitPrice)}{x.overridden ? ' (override)' : ''}</span> },
            { header: 'Changes', cell: (x) => (x.history.length ? x.history.map((h) => `${h.unitPrice.amount} from ${when(h.effectiveFrom)}`).join('; ') : '—'), wide: true },
            {
              header: 'Actions',
              cell: (x) => (
                <button type="button" className="plain" disabled={!!denied} title={denied ?? undefined} onClick={() => setPrice({ skuId: x.id, unitPrice: x.unitPrice.amount, effectiveFrom: '' })}>
                  Override {x.name}
                </button>
              ),
            },
          ]}
        />
        <MutationForm
          title="Override a price"
          submitLabel="Set price"
          deniedBecause={denied}
          onSubmit={() => setSkuPrice({ input: { skuId: price.skuId, unitPrice: price.unitPrice, ...(price.effectiveFrom ? { effectiveFrom: new Date(price.effectiveFrom).toISOString() } : {}) } })}
          onDone={reload}
        >
          <SelectField label="SKU" value={price.skuId} onChange={(skuId) => setPrice({ ...price, skuId })} options={[{ value: '', label: '—' }, ...skus.map((x) => ({ value: x.id, label: x.name }))]} />
          <TextField label="Unit price" value={price.unitPrice} onChange={(unitPrice) => setPrice({ ...price, unitPrice })} required hint="decimal, in the billing currency" />
          <TextField label="Effective from" type="datetime-local" value={price.effectiveFrom} onChange={(effectiveFrom) => setPrice({ ...price, effectiveFrom })} hint="empty: from the current hour" />
        </MutationForm>
      </Card>
    </Page>
  );
}
