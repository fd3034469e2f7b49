/** Labels as `key=value` chips, and an alert's annotations with its runbook and source links. */
import { Link } from 'wouter';
import { entriesOf, safeHref } from '../lib/labels';

/** The alerts list filtered by one label, in any status (the filter text of lib/labels.ts, in the URL). */
export const alertsWithLabel = (key: string, value: string) =>
  `/alerts?status=any&label=${encodeURIComponent(`${key}=${value}`)}`;

/** Labels as chips; with `href`, each chip links there (e.g. the alerts list filtered by that label). */
export function LabelList({
  labels,
  name = 'Labels',
  href,
}: {
  labels: unknown;
  name?: string;
  href?: (key: string, value: string) => string;
}) {
  const entries = entriesOf(labels);
  if (!entries.length) return <span className="hint">none</span>;
  return (
    <ul className="chips" aria-label={name}>
      {entries.map(([k, v]) => {
        const chip = (
          <code title={`${k}=${v}`}>
            {k}={v}
          </code>
        );
        return (
          <li key={k}>
            {href ? (
              <Link href={href(k, v)} title={`Alerts with ${k}=${v}`}>
                {chip}
              </Link>
            ) : (
              chip
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Annotations shown as Alertmanager's are: runbook, dashboard and generator links first, the rest as text. */
const LINKS: Record<string, string> = { runbook_url: 'Runbook', dashboard_url: 'Dashboard', generator_url: 'Source' };

/**
 * An alert's annotations. A link key (runbook_url, ...) missing from the annotations is taken from
 * the labels, where some sources put the runbook. Only http(s) URLs become links.
 */
export function Annotations({ annotations, labels }: { annotations: unknown; labels?: unknown }) {
  const entries = entriesOf(annotations);
  const fromLabels = entriesOf(labels).filter(([k]) => LINKS[k] && !entries.some(([a]) => a === k));
  const links = [...entries, ...fromLabels].filter(([k, v]) => LINKS[k] && safeHref(v));
  const rest = entries.filter((e) => !links.includes(e));
  if (!links.length && !rest.length) return <span className="hint">none</span>;
  return (
    <div role="group" aria-label="Annotations">
      {links.length > 0 && (
        <p className="row-actions">
          {links.map(([k, v]) => (
            <a key={k} href={safeHref(v)!} title={v} target="_blank" rel="noreferrer noopener">
              {LINKS[k]}
            </a>
          ))}
        </p>
      )}
      {rest.length > 0 && (
        <dl className="facts">
          {rest.map(([k, v]) => (
            <div key={k} style={{ display: 'contents' }}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
