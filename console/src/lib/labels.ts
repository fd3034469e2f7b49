/**
 * Label filters as operators type them (Grafana and Alertmanager style): `env=prod, team:gpu`.
 * The same text travels in the URL, so a filtered view can be shared.
 */

/** `k=v, k2:v2` → `{k: 'v', k2: 'v2'}`; null when empty. A pair without `=` or `:` is an error naming it. */
export function parseLabelText(text: string): { labels: Record<string, string> | null; error: string | null } {
  const labels: Record<string, string> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = part.search(/[=:]/);
    if (at <= 0) return { labels: null, error: `"${part}": write a label as key=value.` };
    labels[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return { labels: Object.keys(labels).length ? labels : null, error: null };
}

/** A JSON object's entries as strings (labels and annotations are string maps; other values are shown as JSON). */
export function entriesOf(value: unknown): [string, string][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([k, v]) => [
    k,
    typeof v === 'string' ? v : JSON.stringify(v),
  ]);
}

/** Only http(s) URLs become links (an annotation is tenant-supplied text). */
export function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
