/**
 * Form fields with their label (the accessible name) wrapped around the control, and a form that runs
 * one mutation and shows its error.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { ErrorView } from './ErrorView';
import type { ActionResult } from './ActionButton';

export function Field({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      {children}
      {hint && <small className="hint">{hint}</small>}
    </label>
  );
}

export function TextField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  hint?: string;
  required?: boolean;
  placeholder?: string;
  multiline?: boolean;
  autoComplete?: string;
}) {
  const common = {
    value: props.value,
    required: props.required,
    placeholder: props.placeholder,
    onChange: (e: { target: { value: string } }) => props.onChange(e.target.value),
  };
  return (
    <Field label={props.label} hint={props.hint}>
      {props.multiline ? (
        <textarea rows={6} {...common} />
      ) : (
        <input type={props.type ?? 'text'} autoComplete={props.autoComplete} {...common} />
      )}
    </Field>
  );
}

export function SelectField<V extends string>(props: {
  label: string;
  value: V;
  onChange: (v: V) => void;
  options: readonly (V | { value: V; label: string })[];
  hint?: string;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value as V)}>
        {props.options.map((o) => {
          const opt = typeof o === 'string' ? { value: o, label: o === '' ? 'any' : o.toLowerCase() } : o;
          return (
            <option key={opt.value} value={opt.value}>
              {opt.label}
            </option>
          );
        })}
      </select>
    </Field>
  );
}

export function CheckboxField(props: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="field checkbox">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      <span className="field-label">{props.label}</span>
    </label>
  );
}

/** A form whose submit runs one mutation; disabled with the reason when the user may not submit it. */
export function MutationForm(props: {
  title?: string;
  submitLabel: string;
  onSubmit: () => Promise<ActionResult | void>;
  deniedBecause?: string | null;
  children: ReactNode;
  onDone?: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CombinedError | Error | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await props.onSubmit();
      if (r && r.error) setError(r.error);
      else props.onDone?.();
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="card form" onSubmit={(e) => void submit(e)} aria-label={props.title ?? props.submitLabel}>
      {props.title && <h2>{props.title}</h2>}
      <fieldset disabled={!!props.deniedBecause}>{props.children}</fieldset>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !!props.deniedBecause}>
          {props.submitLabel}
        </button>
        {props.deniedBecause && <small className="reason">{props.deniedBecause}</small>}
      </div>
      <ErrorView error={error} />
    </form>
  );
}
