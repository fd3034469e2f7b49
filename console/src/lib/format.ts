/** Small display helpers shared by the pages. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

export function lower(v: string | null | undefined): string {
  return v ? v.toLowerCase().replace(/_/g, ' ') : '—';
}

export function json(v: unknown): string {
  return JSON.stringify(v, null, 2);
}
