/** Labels as `key=value` chips, and an alert's annotations with its runbook and source links. */
import { entriesOf, safeHref } from '../lib/labels';

export function LabelList({ labels, name = 'Labels' }: { labels: unknown; name?: string }) {
  const entries = entriesOf(labels);
  if (!entries.length) return <span className="hint">none</span>;
  return (
    <ul className="chips" aria-label={name}>
      {entries.map(([k, v]) => (
        <li key={k}>
          <code>
            {k}={v}
          </code>
        </li>
      ))}
    </ul>
  );
}

/** Annotations shown as Alertmanager's are: runbook and generator links first, the description as text. */
const LINKS: Record<string, string> = { runbook_url: 'Runbook', generator_url: 'Source' };

export function Annotations({ annotations }: { annotations: unknown }) {
  const entries = entriesOf(annotations);
  if (!entries.length) return <span className="hint">none</span>;
  const links = entries.filter(([k, v]) => LINKS[k] && safeHref(v));
  const rest = entries.filter((e) => !links.includes(e));
  return (
    <div aria-label="Annotations">
      {links.length > 0 && (
        <p className="row-actions">
          {links.map(([k, v]) => (
            <a key={k} href={safeHref(v)!} target="_blank" rel="noreferrer noopener">
              {LINKS[k]}
            </a>
          ))}
        </p>
      )}
      <dl className="facts">
        {rest.map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
