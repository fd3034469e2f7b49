/** Meters: which events count as usage of a SKU and how they are measured; admins add and delete them. */
import { useState } from 'react';
import { useMutation } from 'urql';
import { ActionButton } from '../../components/ActionButton';
import { DataTable } from '../../components/DataTable';
import { MutationForm, SelectField, TextField } from '../../components/Field';
import { Card } from '../../components/Page';
import { graphql, readFragment, type FragmentOf, type VariablesOf } from '../../lib/graphql';

export const MeterFields = graphql(`
  fragment ConsoleBillingMeter on BillingMeter {
    id
    slug
    typeGlob
    aggregation
    valuePath
    groupBy
    unit
    unitPrice
    skuId
  }
`);

const CreateMeter = graphql(`
  mutation ConsoleCreateMeter($input: CreateMeterInput!) {
    createMeter(input: $input) {
      id
      slug
    }
  }
`);
const DeleteMeter = graphql(`
  mutation ConsoleDeleteMeter($id: ID!) {
    deleteMeter(id: $id)
  }
`);

type MeterInput = VariablesOf<typeof CreateMeter>['input'];
const AGGREGATIONS = [
  'SUM',
  'COUNT',
  'AVG',
  'MIN',
  'MAX',
  'LATEST',
] as const satisfies readonly MeterInput['aggregation'][];

export function MetersCard({
  meters,
  denied,
  onDone,
}: {
  meters: readonly FragmentOf<typeof MeterFields>[] | undefined;
  denied: string | null;
  onDone: () => void;
}) {
  const rows = meters && readFragment(MeterFields, meters);
  const [, createMeter] = useMutation(CreateMeter);
  const [, deleteMeter] = useMutation(DeleteMeter);
  const [meter, setMeter] = useState({
    slug: '',
    typeGlob: '',
    aggregation: 'SUM' as MeterInput['aggregation'],
    valuePath: '',
    groupBy: '',
    unitPrice: '',
  });
  return (
    <Card title="Meters">
      <DataTable
        caption="Meters"
        rows={rows}
        rowKey={(m) => m.id}
        columns={[
          { header: 'Meter', cell: (m) => m.slug },
          { header: 'Events', cell: (m) => <code>{m.typeGlob}</code> },
          {
            header: 'Measure',
            cell: (m) =>
              `${m.aggregation.toLowerCase()}${m.valuePath ? ` of ${m.valuePath}` : ''}${m.groupBy ? ` per ${m.groupBy}` : ''}`,
          },
          { header: 'Price', cell: (m) => `${m.unitPrice} per ${m.unit}`, wide: true },
          {
            header: 'Actions',
            cell: (m) => (
              <ActionButton
                variant="danger"
                confirm={`Delete the meter ${m.slug}?`}
                run={() => deleteMeter({ id: m.id })}
                deniedBecause={denied}
                onDone={onDone}
              >
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
          const input: MeterInput = { slug: meter.slug, typeGlob: meter.typeGlob, aggregation: meter.aggregation };
          if (meter.valuePath) input.valuePath = meter.valuePath;
          if (meter.groupBy) input.groupBy = meter.groupBy;
          if (meter.unitPrice) input.unitPrice = meter.unitPrice;
          return createMeter({ input });
        }}
        onDone={onDone}
      >
        <TextField label="Meter slug" value={meter.slug} onChange={(slug) => setMeter({ ...meter, slug })} required />
        <TextField
          label="Event type"
          value={meter.typeGlob}
          onChange={(typeGlob) => setMeter({ ...meter, typeGlob })}
          placeholder="cloud.cost"
          required
        />
        <SelectField
          label="Aggregation"
          value={meter.aggregation}
          onChange={(aggregation) => setMeter({ ...meter, aggregation })}
          options={AGGREGATIONS}
        />
        <TextField
          label="Value path"
          value={meter.valuePath}
          onChange={(valuePath) => setMeter({ ...meter, valuePath })}
          placeholder="$.cost"
        />
        <TextField label="Per label" value={meter.groupBy} onChange={(groupBy) => setMeter({ ...meter, groupBy })} />
        <TextField
          label="Price per unit"
          value={meter.unitPrice}
          onChange={(unitPrice) => setMeter({ ...meter, unitPrice })}
          placeholder="1"
        />
      </MutationForm>
    </Card>
  );
}
