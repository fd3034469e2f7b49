/**
 * Local GPUs versus the same hours on cloud SKUs (with the inputs still missing), and the settings that
 * price them (energy, amortization, currency, time zone; admins).
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { DataTable } from '../../components/DataTable';
import { MutationForm, TextField } from '../../components/Field';
import { graphql, readFragment, type FragmentOf, type VariablesOf } from '../../lib/graphql';
import { amountOf, money, MoneyFields } from './money';

export const LocalGpuFields = graphql(
  `
    fragment ConsoleBillingLocalGpu on BillingLocalGpu {
      missing {
        input
        detail
      }
      models {
        model
        gpuHours
        energyKwh
        localEnergy {
          ...ConsoleMoney
        }
        localAmortization {
          ...ConsoleMoney
        }
        localTotal {
          ...ConsoleMoney
        }
        cloudSkuId
        cloudUnitPrice {
          ...ConsoleMoney
        }
        cloudTotal {
          ...ConsoleMoney
        }
        saving {
          ...ConsoleMoney
        }
      }
      totals {
        gpuHours
        comparedGpuHours
        energyKwh
        localTotal {
          ...ConsoleMoney
        }
        cloudTotal {
          ...ConsoleMoney
        }
        saving {
          ...ConsoleMoney
        }
      }
    }
  `,
  [MoneyFields],
);

export const SettingsFields = graphql(
  `
    fragment ConsoleBillingSettings on BillingSettings {
      currency
      timeZone
      pricePerKwh {
        ...ConsoleMoney
      }
      gpuAmortizationPerHour {
        ...ConsoleMoney
      }
    }
  `,
  [MoneyFields],
);

const UpdateSettings = graphql(`
  mutation ConsoleUpdateBillingSettings($input: BillingSettingsInput!) {
    updateBillingSettings(input: $input) {
      currency
      timeZone
    }
  }
`);

export function LocalGpuView({ local }: { local: FragmentOf<typeof LocalGpuFields> }) {
  const l = readFragment(LocalGpuFields, local);
  return (
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
          {
            header: 'Local',
            cell: (m) => (
              <span
                className="money"
                title={`energy ${money(m.localEnergy)} + amortization ${money(m.localAmortization)}`}
              >
                {money(m.localTotal)}
              </span>
            ),
          },
          {
            header: 'Cloud',
            cell: (m) =>
              m.cloudTotal ? `${money(m.cloudTotal)} (${m.cloudSkuId} at ${money(m.cloudUnitPrice)})` : 'no cloud SKU',
          },
          { header: 'Saving', cell: (m) => <span className="money">{money(m.saving)}</span> },
        ]}
      />
      <p className="hint">
        {l.totals.gpuHours} GPU-hours, {l.totals.energyKwh} kWh: local {money(l.totals.localTotal)}; the{' '}
        {l.totals.comparedGpuHours} compared GPU-hours on cloud {money(l.totals.cloudTotal)}; saving{' '}
        {money(l.totals.saving)}.
      </p>
    </>
  );
}

type SettingsInput = VariablesOf<typeof UpdateSettings>['input'];

export function SettingsForm({
  settings,
  denied,
  onDone,
}: {
  settings: FragmentOf<typeof SettingsFields> | undefined;
  denied: string | null;
  onDone: () => void;
}) {
  const s = readFragment(SettingsFields, settings);
  const [, updateSettings] = useMutation(UpdateSettings);
  const [form, setForm] = useState({ pricePerKwh: '', gpuAmortizationPerHour: '', currency: '', timeZone: '' });
  return (
    <MutationForm
      title="Billing settings"
      submitLabel="Save settings"
      deniedBecause={denied}
      onSubmit={() => {
        const input: SettingsInput = {};
        if (form.pricePerKwh) input.pricePerKwh = form.pricePerKwh;
        if (form.gpuAmortizationPerHour) input.gpuAmortizationPerHour = form.gpuAmortizationPerHour;
        if (form.currency) input.currency = form.currency;
        if (form.timeZone) input.timeZone = form.timeZone;
        return updateSettings({ input });
      }}
      onDone={onDone}
    >
      <TextField
        label="Energy price per kWh"
        value={form.pricePerKwh}
        onChange={(pricePerKwh) => setForm({ ...form, pricePerKwh })}
        placeholder={amountOf(s?.pricePerKwh) ?? 'not set'}
      />
      <TextField
        label="Amortization per GPU-hour"
        value={form.gpuAmortizationPerHour}
        onChange={(gpuAmortizationPerHour) => setForm({ ...form, gpuAmortizationPerHour })}
        placeholder={amountOf(s?.gpuAmortizationPerHour) ?? 'not set'}
      />
      <TextField
        label="Currency"
        value={form.currency}
        onChange={(currency) => setForm({ ...form, currency })}
        placeholder={s?.currency}
      />
      <TextField
        label="Billing time zone"
        value={form.timeZone}
        onChange={(timeZone) => setForm({ ...form, timeZone })}
        placeholder={s?.timeZone}
      />
    </MutationForm>
  );
}
