/**
 * A button that runs one mutation. Disabled with the reason shown when the user may not take the
 * action (`deniedBecause`); the server's error, a 403 included, is shown under it.
 */
import { useId, useState, type ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { ErrorView } from './ErrorView';

export interface ActionResult {
  error?: CombinedError;
}

export function ActionButton(props: {
  /** The accessible name (what tests and screen readers find). */
  children: ReactNode;
  /** A fuller accessible name when the visible text is short (e.g. "Make admin" in a row of users). */
  label?: string;
  run: () => Promise<ActionResult | void>;
  deniedBecause?: string | null;
  confirm?: string;
  variant?: 'primary' | 'danger' | 'plain';
  onDone?: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CombinedError | Error | null>(null);
  const reasonId = useId();
  const denied = props.deniedBecause ?? null;
  async function click() {
    if (props.confirm && !window.confirm(props.confirm)) return;
    setBusy(true);
    setError(null);
    try {
      const r = await props.run();
      if (r && r.error) setError(r.error);
      else props.onDone?.();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="action">
      <button
        type="button"
        aria-label={props.label}
        className={props.variant ?? 'plain'}
        disabled={busy || !!denied}
        aria-describedby={denied ? reasonId : undefined}
        onClick={() => void click()}
      >
        {props.children}
      </button>
      {denied && (
        <small id={reasonId} className="reason">
          {denied}
        </small>
      )}
      <ErrorView error={error} />
    </span>
  );
}
