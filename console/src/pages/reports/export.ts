/**
 * CSV export through the REST export URL (`reportExportUrl`): the server streams the rows, the browser
 * saves the file. The session cookie authenticates it (same origin).
 */
import type { Json } from '../../lib/graphql';

/** The file name the server gave (Content-Disposition), else one made from the entity. */
function fileNameOf(header: string | null, entity: string): string {
  const m = header?.match(/filename="?([^";]+)"?/);
  return m ? m[1] : `${entity}.csv`;
}

/** What happened: a note for the user, or the server's refusal (`{code, detail}`) as text. */
export async function exportCsv(
  url: string,
  query: Json,
  entity: string,
): Promise<{ error: string | null; done: string | null }> {
  const res = await fetch(url.replace('format=CSV', 'format=csv'), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'text/csv' },
    body: JSON.stringify(query),
  });
  if (!res.ok) {
    // REST errors are {code, detail}; detail is a message or a list of {loc, msg} for invalid fields.
    const body: { code?: string; detail?: string | { loc: (string | number)[]; msg: string }[] } | null = await res
      .json()
      .catch(() => null);
    const detail = Array.isArray(body?.detail)
      ? body.detail.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; ')
      : (body?.detail ?? '');
    return { error: `${res.status} ${body?.code ?? res.statusText}: ${detail}`, done: null };
  }
  const blob = await res.blob();
  const name = fileNameOf(res.headers.get('content-disposition'), entity);
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  return { error: null, done: `Exported ${name} (${blob.size} bytes).` };
}
