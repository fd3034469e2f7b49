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

/** "40 s ago", "5 min ago", "3 h ago", "2 d ago" (or "in 5 min") from `now`. */
export function relative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  const a = Math.abs(s);
  const v =
    a < 60
      ? `${a} s`
      : a < 3600
        ? `${Math.floor(a / 60)} min`
        : a < 86400
          ? `${Math.floor(a / 3600)} h`
          : `${Math.floor(a / 86400)} d`;
  return s >= 0 ? `${v} ago` : `in ${v}`;
}
