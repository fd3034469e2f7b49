/** The SKU catalogue with the tenant's prices and their changes; admins override a price. */
import { useState } from 'react';
import { useMutation } from 'urql';
import { DataTable } from '../../components/DataTable';
import { MutationForm, SelectField, TextField } from '../../components/Field';
import { Card } from '../../components/Page';
import { when } from '../../lib/format';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';
import { amountOf, money, MoneyFields } from './money';

export const SkuFields = graphql(
  `
    fragment ConsoleBillingSku on BillingSku {
      id
      name
      kind
      unit
      meter
      gpuModel
      listPrice {
        ...ConsoleMoney
      }
      unitPrice {
        ...ConsoleMoney
      }
      overridden
      custom
      history {
        unitPrice {
          ...ConsoleMoney
        }
        effectiveFrom
        createdAt
      }
    }
  `,
  [MoneyFields],
);

const SetSkuPrice = graphql(`
  mutation ConsoleSetSkuPrice($input: SetSkuPriceInput!) {
    setSkuPrice(input: $input) {
      id
      unitPrice {
        amount
        currency
      }
      overridden
    }
  }
`);

export function SkusCard({
  skus,
  denied,
  onDone,
}: {
  skus: readonly FragmentOf<typeof SkuFields>[] | undefined;
  denied: string | null;
  onDone: () => void;
}) {
  const rows = readFragment(SkuFields, skus ?? []);
  const [, setSkuPrice] = useMutation(SetSkuPrice);
  const [price, setPrice] = useState({ skuId: '', unitPrice: '', effectiveFrom: '' });
  return (
    <Card title="SKUs and prices">
      <DataTable
        caption="SKUs"
        rows={rows}
        rowKey={(x) => x.id}
        columns={[
          {
            header: 'SKU',
            cell: (x) => (
              <span>
                {x.name} <small className="hint">{x.id}</small>
              </span>
            ),
          },
          {
            header: 'Kind',
            cell: (x) =>
              x.kind === 'REFERENCE' ? `cloud reference${x.gpuModel ? ` (${x.gpuModel})` : ''}` : 'metered',
            wide: true,
          },
          { header: 'Unit', cell: (x) => x.unit, wide: true },
          { header: 'List price', cell: (x) => money(x.listPrice), wide: true },
          {
            header: 'Price',
            cell: (x) => (
              <span className="money">
                {money(x.unitPrice)}
                {x.overridden ? ' (override)' : ''}
              </span>
            ),
          },
          {
            header: 'Changes',
            cell: (x) =>
              x.history.length
                ? x.history.map((h) => `${amountOf(h.unitPrice)} from ${when(h.effectiveFrom)}`).join('; ')
                : '—',
            wide: true,
          },
          {
            header: 'Actions',
            cell: (x) => (
              <button
                type="button"
                className="plain"
                disabled={!!denied}
                title={denied ?? undefined}
                onClick={() => setPrice({ skuId: x.id, unitPrice: amountOf(x.unitPrice) ?? '', effectiveFrom: '' })}
              >
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
        onSubmit={() =>
          setSkuPrice({
            input: {
              skuId: price.skuId,
              unitPrice: price.unitPrice,
              ...(price.effectiveFrom ? { effectiveFrom: new Date(price.effectiveFrom).toISOString() } : {}),
            },
          })
        }
        onDone={onDone}
      >
        <SelectField
          label="SKU"
          value={price.skuId}
          onChange={(skuId) => setPrice({ ...price, skuId })}
          options={[{ value: '', label: '—' }, ...rows.map((x) => ({ value: x.id, label: x.name }))]}
        />
        <TextField
          label="Unit price"
          value={price.unitPrice}
          onChange={(unitPrice) => setPrice({ ...price, unitPrice })}
          required
          hint="decimal, in the billing currency"
        />
        <TextField
          label="Effective from"
          type="datetime-local"
          value={price.effectiveFrom}
          onChange={(effectiveFrom) => setPrice({ ...price, effectiveFrom })}
          hint="empty: from the current hour"
        />
      </MutationForm>
    </Card>
  );
}
