/**
 * Ids as links to what they name: a triage's evidence items (by kind), and the id-valued fields of an
 * assistant action's arguments and result (`device_id`, `alert_id`, `proposal_id`, ...). The full id is
 * always shown beside the link (never shortened), so it can be copied or searched for.
 */
import { Link } from 'wouter';
import { evidenceHref, hrefOf, ID_KEYS } from '../lib/links';
import { entriesOf } from '../lib/labels';
import { lower } from '../lib/format';

export interface EvidenceItem {
  kind: string;
  id: string;
  label: string;
}

/** Evidence as links named by what they are. `deviceId`: the device drift reports and intent versions belong to. */
export function Evidence({ items, deviceId }: { items: ReadonlyArray<EvidenceItem>; deviceId?: string | null }) {
  if (!items.length) return null;
  return (
    <ul className="evidence" aria-label="Evidence">
      {items.map((e) => {
        const href = evidenceHref(e.kind, e.id, deviceId);
        return (
          <li key={`${e.kind}:${e.id}`}>
            <small className="hint">{lower(e.kind).replace('_', ' ')}:</small>{' '}
            {href ? (
              <Link href={href} title={e.id}>
                {e.label}
              </Link>
            ) : (
              <span title={e.id}>{e.label}</span>
            )}{' '}
            <code>{e.id}</code>
          </li>
        );
      })}
    </ul>
  );
}

/** An object's fields as `key: value`, with id-valued fields (`device_id`, ...) linked to what they name. */
export function IdFields({ value, name }: { value: unknown; name: string }) {
  const entries = entriesOf(value);
  if (!entries.length) return <span className="hint">—</span>;
  return (
    <ul className="id-links" aria-label={name}>
      {entries.map(([k, v]) => {
        const href = ID_KEYS[k] ? hrefOf(ID_KEYS[k], v) : null;
        return (
          <li key={k}>
            <small className="hint">{k}:</small>{' '}
            {href ? (
              <Link href={href} title={`${ID_KEYS[k]} ${v}`}>
                <code>{v}</code>
              </Link>
            ) : (
              <code>{v}</code>
            )}
          </li>
        );
      })}
    </ul>
  );
}
