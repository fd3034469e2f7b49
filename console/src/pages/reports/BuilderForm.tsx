/** The query builder: entity, window, bucket, grouping, aggregate, limit and filters, from the catalogue. */
import type { ReactNode } from 'react';
import { SelectField, TextField } from '../../components/Field';
import { AGGREGATES, type Builder, type CatalogueEntity, type FilterRow } from './query';

export function BuilderForm(props: {
  b: Builder;
  setB: (b: Builder) => void;
  entities: readonly CatalogueEntity[];
  buckets: readonly string[];
  defaultLimit: number;
  running: boolean;
  onRun: () => void;
  onExport: () => void;
  /** Export notes, errors and the query document, under the buttons. */
  children: ReactNode;
}) {
  const { b, setB } = props;
  const entity = props.entities.find((e) => e.entity === b.entity);
  const fields = entity?.fields ?? [];
  const setFilter = (i: number, patch: Partial<FilterRow>) =>
    setB({ ...b, filters: b.filters.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  const fieldOptions = [{ value: '', label: '—' }, ...fields.map((f) => ({ value: f.name, label: f.name }))];
  return (
    <form
      className="card form"
      aria-label="Query builder"
      onSubmit={(e) => {
        e.preventDefault();
        props.onRun();
      }}
    >
      <h2>Query builder</h2>
      <fieldset>
        <SelectField
          label="Entity"
          value={b.entity}
          onChange={(entity) => setB({ ...b, entity, groupBy: '', aggregateField: '', filters: [] })}
          options={props.entities.map((e) => ({ value: e.entity, label: e.entity }))}
        />
        <TextField
          label="Window (hours)"
          type="number"
          value={b.sinceHours}
          onChange={(sinceHours) => setB({ ...b, sinceHours })}
          hint={entity?.windowOptional ? 'empty: no window' : `over ${entity?.timeField ?? 'time'}`}
        />
        <SelectField
          label="Bucket"
          value={b.bucket}
          onChange={(bucket) => setB({ ...b, bucket })}
          options={[{ value: '', label: 'none' }, ...props.buckets.map((x) => ({ value: x, label: x }))]}
        />
        <SelectField
          label="Group by"
          value={b.groupBy}
          onChange={(groupBy) => setB({ ...b, groupBy })}
          options={[{ value: '', label: 'none' }, ...fields.map((f) => ({ value: f.name, label: f.name }))]}
        />
        <SelectField
          label="Aggregate"
          value={b.aggregate}
          onChange={(aggregate) => setB({ ...b, aggregate })}
          options={AGGREGATES.map((a) => ({ value: a, label: a || 'none (rows)' }))}
        />
        {b.aggregate && b.aggregate !== 'count' && (
          <SelectField
            label="Of field"
            value={b.aggregateField}
            onChange={(aggregateField) => setB({ ...b, aggregateField })}
            options={fieldOptions}
          />
        )}
        <TextField
          label="Limit"
          type="number"
          value={b.limit}
          onChange={(limit) => setB({ ...b, limit })}
          placeholder={String(props.defaultLimit)}
        />
      </fieldset>
      <h3>Filters</h3>
      {b.filters.map((f, i) => {
        const def = fields.find((x) => x.name === f.field);
        return (
          <fieldset key={i} className="filter-row" aria-label={`Filter ${i + 1}`}>
            <SelectField
              label={`Filter ${i + 1} field`}
              value={f.field}
              onChange={(field) => setFilter(i, { field, op: fields.find((x) => x.name === field)?.ops[0] ?? 'eq' })}
              options={fieldOptions}
            />
            <SelectField
              label={`Filter ${i + 1} op`}
              value={f.op}
              onChange={(op) => setFilter(i, { op })}
              options={(def?.ops ?? ['eq']).map((o) => ({ value: o, label: o }))}
            />
            {def?.values && (f.op === 'eq' || f.op === 'ne') ? (
              <SelectField
                label={`Filter ${i + 1} value`}
                value={f.value}
                onChange={(value) => setFilter(i, { value })}
                options={[{ value: '', label: '—' }, ...def.values.map((v) => ({ value: v, label: v }))]}
              />
            ) : (
              <TextField
                label={`Filter ${i + 1} value`}
                value={f.value}
                onChange={(value) => setFilter(i, { value })}
                hint={f.op === 'in' || f.op === 'not_in' ? 'comma-separated' : def?.description}
              />
            )}
            <button
              type="button"
              className="plain"
              onClick={() => setB({ ...b, filters: b.filters.filter((_, j) => j !== i) })}
            >
              Remove filter {i + 1}
            </button>
          </fieldset>
        );
      })}
      <div className="form-actions">
        <button
          type="button"
          className="plain"
          onClick={() => setB({ ...b, filters: [...b.filters, { field: '', op: 'eq', value: '' }] })}
        >
          Add filter
        </button>
        <button type="submit" className="primary" disabled={props.running}>
          Run report
        </button>
        <button type="button" className="plain" onClick={props.onExport}>
          Export CSV
        </button>
      </div>
      {props.children}
    </form>
  );
}
