/**
 * The rule form's label rows (key = value) and payload condition rows (path, operator, value), each
 * with "Edit as JSON" for those who would rather paste it.
 */
import { useState, type ReactNode } from 'react';
import { SelectField, TextField } from './Field';
import {
  conditionRowsOf,
  conditionsOf,
  labelRowsOf,
  labelsOf,
  PAYLOAD_OPS,
  type ConditionRow,
  type LabelRow,
} from '../lib/match-rows';

/** Rows, or a JSON text area; switching back to rows needs valid JSON (the error says what is wrong). */
function RowsOrJson<T>(props: {
  legend: string;
  rows: T[];
  onChange: (rows: T[]) => void;
  toJson: (rows: T[]) => unknown;
  fromJson: (v: unknown) => T[];
  blank: T;
  renderRow: (row: T, set: (r: T) => void, i: number) => ReactNode;
  hint?: string;
}) {
  const [json, setJson] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const update = (i: number, r: T) => props.onChange(props.rows.map((x, j) => (j === i ? r : x)));
  function editJson(text: string) {
    setJson(text);
    try {
      props.onChange(props.fromJson(text.trim() ? JSON.parse(text) : []));
      setError(null);
    } catch {
      setError(`${props.legend}: not valid JSON.`);
    }
  }
  return (
    <fieldset className="kv-rows" aria-label={props.legend}>
      <legend>{props.legend}</legend>
      {json === null ? (
        <>
          {props.rows.map((r, i) => (
            <div className="kv-row" key={i}>
              {props.renderRow(r, (x) => update(i, x), i)}
              <button
                type="button"
                className="plain"
                aria-label={`Remove ${props.legend.toLowerCase()} row ${i + 1}`}
                onClick={() => props.onChange(props.rows.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </div>
          ))}
          <div className="row-actions">
            <button type="button" className="plain" onClick={() => props.onChange([...props.rows, props.blank])}>
              Add {props.legend.toLowerCase().replace(/s$/, '')}
            </button>
            <button
              type="button"
              className="plain"
              onClick={() => setJson(JSON.stringify(props.toJson(props.rows), null, 2))}
            >
              Edit {props.legend.toLowerCase()} as JSON
            </button>
          </div>
        </>
      ) : (
        <>
          <TextField label={`${props.legend} (JSON)`} value={json} onChange={editJson} multiline />
          {error && <small className="error">{error}</small>}
          <button type="button" className="plain" disabled={!!error} onClick={() => setJson(null)}>
            Edit {props.legend.toLowerCase()} as rows
          </button>
        </>
      )}
      {props.hint && <small className="hint">{props.hint}</small>}
    </fieldset>
  );
}

export function LabelRows({ rows, onChange }: { rows: LabelRow[]; onChange: (rows: LabelRow[]) => void }) {
  return (
    <RowsOrJson
      legend="Event labels"
      rows={rows}
      onChange={onChange}
      toJson={labelsOf}
      fromJson={labelRowsOf}
      blank={{ key: '', value: '' }}
      hint="Every label must be on the event with this value."
      renderRow={(r, set, i) => (
        <>
          <TextField
            label={`Label ${i + 1} key`}
            value={r.key}
            onChange={(key) => set({ ...r, key })}
            placeholder="env"
          />
          <TextField
            label={`Label ${i + 1} value`}
            value={r.value}
            onChange={(value) => set({ ...r, value })}
            placeholder="prod"
          />
        </>
      )}
    />
  );
}

export function ConditionRows({ rows, onChange }: { rows: ConditionRow[]; onChange: (rows: ConditionRow[]) => void }) {
  return (
    <RowsOrJson
      legend="Payload conditions"
      rows={rows}
      onChange={onChange}
      toJson={conditionsOf}
      fromJson={(v) => {
        if (!Array.isArray(v)) throw new Error('not a list');
        return conditionRowsOf(v as { path: string; op: string; value?: unknown }[]);
      }}
      blank={{ path: '', op: 'EQ', value: '' }}
      hint="All must hold. Values are JSON when they parse (90, true), else text; IN takes a, b, c."
      renderRow={(r, set, i) => (
        <>
          <TextField
            label={`Condition ${i + 1} path`}
            value={r.path}
            onChange={(path) => set({ ...r, path })}
            placeholder="disk.pct"
          />
          <SelectField
            label={`Condition ${i + 1} operator`}
            value={r.op}
            onChange={(op) => set({ ...r, op })}
            options={PAYLOAD_OPS.map((o) => ({ value: o, label: o.toLowerCase() }))}
          />
          {r.op !== 'EXISTS' && (
            <TextField
              label={`Condition ${i + 1} value`}
              value={r.value}
              onChange={(value) => set({ ...r, value })}
              placeholder="90"
            />
          )}
        </>
      )}
    />
  );
}
