/**
 * An outbound webhook's triggers as the console edits and shows them: which changes fire it, and the
 * filters the API has on them (src/webhooks/triggers.ts): severities and labels on alert and event
 * triggers, an event type glob on EVENT. Filters the console does not edit (proposal kinds, payload
 * conditions) are kept as they were. Used by the webhook list (create) and the webhook page (edit).
 */
import { CheckboxField, TextField } from '../../components/Field';
import { entriesOf, parseLabelText } from '../../lib/labels';
import { lower } from '../../lib/format';
import { graphql, readFragment, type FragmentOf, type ResultOf } from '../../lib/graphql';

export const TRIGGERS = [
  'ALERT_OPENED',
  'ALERT_ACKNOWLEDGED',
  'ALERT_SNOOZED',
  'ALERT_REOPENED',
  'ALERT_RESOLVED',
  'EVENT',
  'PROPOSAL_OPENED',
  'PROPOSAL_APPROVED',
  'PROPOSAL_DENIED',
  'PROPOSAL_APPLIED',
  'PROPOSAL_FAILED',
  'REPORT_DELIVERED',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

const SEVERITIES = ['CRITICAL', 'WARNING', 'INFO'] as const;
type Severity = (typeof SEVERITIES)[number];

/** The trigger fields the console reads back (list, page and the edit's answer). */
export const TriggerFields = graphql(`
  fragment ConsoleWebhookTrigger on WebhookTrigger {
    on
    typeGlob
    severities
    kinds
    labels
    payloadConditions {
      path
      op
      value
    }
  }
`);
type StoredTrigger = ResultOf<typeof TriggerFields>;

/** A webhook's triggers as the console reads them (the fragment unmasked). */
export const readTriggers = (triggers: readonly FragmentOf<typeof TriggerFields>[]): readonly StoredTrigger[] =>
  readFragment(TriggerFields, triggers);
/** A WebhookTriggerInput (the create and update mutations check it against the schema). */
interface TriggerInput {
  on: Trigger;
  severities: Severity[] | null;
  labels: Record<string, string> | null;
  typeGlob: string | null;
  kinds?: StoredTrigger['kinds'];
  payloadConditions?: StoredTrigger['payloadConditions'];
}

/** One chosen trigger being edited: filters as typed, plus what the console keeps untouched. */
export interface TriggerDraft {
  on: Trigger;
  severities: Severity[];
  labels: string;
  typeGlob: string;
  kept: Pick<TriggerInput, 'kinds' | 'payloadConditions'>;
}

/** Alert and event triggers filter by severity and labels (the API refuses them elsewhere). */
const filtersBySeverity = (on: Trigger) => on.startsWith('ALERT_') || on === 'EVENT';

export const newDraft = (on: Trigger): TriggerDraft => ({ on, severities: [], labels: '', typeGlob: '', kept: {} });

/** Drafts of a webhook's stored triggers. */
export function draftsOf(triggers: readonly StoredTrigger[]): TriggerDraft[] {
  return triggers.map((t) => ({
    on: t.on as Trigger,
    severities: (t.severities ?? []) as Severity[],
    labels: entriesOf(t.labels)
      .map(([k, v]) => `${k}=${v}`)
      .join(', '),
    typeGlob: t.typeGlob ?? '',
    kept: { kinds: t.kinds, payloadConditions: t.payloadConditions },
  }));
}

/** The drafts as the mutation takes them; throws naming the trigger whose labels do not parse. */
export function triggerInputs(drafts: readonly TriggerDraft[]): TriggerInput[] {
  return drafts.map((d) => {
    const parsed = parseLabelText(d.labels);
    if (parsed.error) throw new Error(`Labels of ${lower(d.on)}: ${parsed.error}`);
    const filtered = filtersBySeverity(d.on);
    return {
      ...d.kept,
      on: d.on,
      severities: filtered && d.severities.length ? d.severities : null,
      labels: filtered ? parsed.labels : null,
      typeGlob: d.on === 'EVENT' && d.typeGlob ? d.typeGlob : null,
    };
  });
}

/** "alert opened (critical; env=prod)": a trigger and its filters in a line. */
export function describeTrigger(t: StoredTrigger): string {
  const filters = [
    t.typeGlob ?? '',
    (t.severities ?? []).map(lower).join(' or '),
    entriesOf(t.labels)
      .map(([k, v]) => `${k}=${v}`)
      .join(', '),
    t.kinds?.length ? t.kinds.join(' or ') : '',
    t.payloadConditions?.length ? `${t.payloadConditions.length} payload condition(s)` : '',
  ].filter(Boolean);
  return lower(t.on) + (filters.length ? ` (${filters.join('; ')})` : '');
}

/** The trigger checkboxes, and for each chosen alert or event trigger its filters. */
export function TriggerEditor({
  drafts,
  onChange,
}: {
  drafts: readonly TriggerDraft[];
  onChange: (drafts: TriggerDraft[]) => void;
}) {
  const set = (on: Trigger, patch: Partial<TriggerDraft>) =>
    onChange(drafts.map((d) => (d.on === on ? { ...d, ...patch } : d)));
  return (
    <>
      <fieldset aria-label="Triggers" className="checks">
        {TRIGGERS.map((t) => (
          <CheckboxField
            key={t}
            label={lower(t)}
            checked={drafts.some((d) => d.on === t)}
            onChange={(c) => onChange(c ? [...drafts, newDraft(t)] : drafts.filter((d) => d.on !== t))}
          />
        ))}
      </fieldset>
      {drafts
        .filter((d) => filtersBySeverity(d.on))
        .map((d) => (
          <fieldset key={d.on} aria-label={`Filters of ${lower(d.on)}`} className="trigger-filters">
            <legend>Only {lower(d.on)} with (empty: every one)</legend>
            <fieldset className="checks" aria-label="Severities">
              {SEVERITIES.map((s) => (
                <CheckboxField
                  key={s}
                  label={lower(s)}
                  checked={d.severities.includes(s)}
                  onChange={(c) =>
                    set(d.on, { severities: c ? [...d.severities, s] : d.severities.filter((x) => x !== s) })
                  }
                />
              ))}
            </fieldset>
            <TextField
              label="Labels"
              value={d.labels}
              onChange={(labels) => set(d.on, { labels })}
              placeholder="env=prod, team=payments"
              hint="All of them must be present with these values."
            />
            {d.on === 'EVENT' && (
              <TextField
                label="Event type glob"
                value={d.typeGlob}
                onChange={(typeGlob) => set(d.on, { typeGlob })}
                placeholder="deploy.*"
              />
            )}
          </fieldset>
        ))}
    </>
  );
}
