/** The frame of every page: its heading (the page's accessible name), optional actions, loading and error. */
import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { ErrorView } from './ErrorView';

export function Page({
  title,
  actions,
  error,
  loading,
  children,
}: {
  title: string;
  actions?: ReactNode;
  error?: CombinedError | null;
  loading?: boolean;
  children?: ReactNode;
}) {
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-head">
        <h1 id="page-title">{title}</h1>
        {actions && <div className="page-actions">{actions}</div>}
      </header>
      <ErrorView error={error} />
      {loading && <p aria-live="polite">Loading…</p>}
      {children}
    </section>
  );
}

export function Card({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      {title && <h2>{title}</h2>}
      {children}
    </section>
  );
}

export function Badge({ value }: { value: string | null | undefined }) {
  if (!value) return null;
  return <span className={`badge badge-${value.toLowerCase()}`}>{value.toLowerCase().replace(/_/g, ' ')}</span>;
}
