/** The form that edits an alert rule (Alert rules page): every field `updateAlertRule` takes that the console shows. */
import { useState } from 'react';
import { useMutation } from 'urql';
import { CheckboxField, MutationForm, SelectField, TextField } from '../components/Field';
import { ConditionRows, LabelRows } from '../components/MatchRows';
import { lower } from '../lib/format';
import { graphql, type VariablesOf } from '../lib/graphql';
import {
  conditionRowsOf,
  conditionsOf,
  labelRowsOf,
  labelsOf,
  type ConditionRow,
  type LabelRow,
} from '../lib/match-rows';
import type { Rule } from './Rules';

export const ALERT_SEVERITY = ['WARNING', 'CRITICAL', 'INFO'] as const;
export const EVENT_SEVERITIES = ['INFO', 'WARNING', 'CRITICAL'] as const;
/** An emptied text field clears the value (null), as the update mutations take it. */
export const orNull = (v: string) => (v.trim() ? v.trim() : null);

export const UpdateRule = graphql(`
  mutation ConsoleUpdateAlertRule($id: ID!, $input: UpdateAlertRuleInput!) {
    updateAlertRule(id: $id, input: $input) {
      id
      name
      enabled
      typeGlob
      source
      module
      severities
      alertSeverity
      windowSeconds
      summaryTemplate
      dedupKeyTemplate
      labels
      payloadConditions {
        path
        op
        value
      }
      resolveTypeGlob
      autoResolveAfterSeconds
    }
  }
`);
/** Edits every field `updateAlertRule` takes that the console shows (the kind cannot change). */
export function EditRuleForm({ rule, denied, onClose }: { rule: Rule; denied: string | null; onClose: () => void }) {
  const [, updateRule] = useMutation(UpdateRule);
  const [f, setF] = useState({
    name: rule.name,
    typeGlob: rule.typeGlob ?? '',
    source: rule.source ?? '',
    module: rule.module ?? '',
    severities: [...rule.severities] as (typeof EVENT_SEVERITIES)[number][],
    alertSeverity: rule.alertSeverity as (typeof ALERT_SEVERITY)[number],
    windowSeconds: String(rule.windowSeconds ?? ''),
    summaryTemplate: rule.summaryTemplate ?? '',
    dedupKeyTemplate: rule.dedupKeyTemplate ?? '',
    resolveTypeGlob: rule.resolveTypeGlob ?? '',
    autoResolve: String(rule.autoResolveAfterSeconds ?? ''),
  });
  const [labels, setLabels] = useState<LabelRow[]>(labelRowsOf(rule.labels));
  const [conditions, setConditions] = useState<ConditionRow[]>(conditionRowsOf(rule.payloadConditions));
  return (
    <MutationForm
      title={`Edit rule ${rule.name}`}
      submitLabel="Save rule"
      deniedBecause={denied}
      onSubmit={() => {
        const input: VariablesOf<typeof UpdateRule>['input'] = {
          name: f.name,
          typeGlob: orNull(f.typeGlob),
          source: orNull(f.source),
          module: orNull(f.module),
          severities: f.severities,
          alertSeverity: f.alertSeverity,
          summaryTemplate: orNull(f.summaryTemplate),
          dedupKeyTemplate: orNull(f.dedupKeyTemplate),
          labels: labelsOf(labels),
          payloadConditions: conditionsOf(conditions),
        };
        if (rule.kind === 'ABSENCE') input.windowSeconds = Number(f.windowSeconds);
        else
          Object.assign(input, {
            resolveTypeGlob: orNull(f.resolveTypeGlob),
            autoResolveAfterSeconds: f.autoResolve.trim() ? Number(f.autoResolve) : null,
          });
        return updateRule({ id: rule.id, input });
      }}
      onDone={onClose}
    >
      <TextField label="Rule name" value={f.name} onChange={(name) => setF({ ...f, name })} required />
      <TextField
        label="Event type"
        value={f.typeGlob}
        onChange={(typeGlob) => setF({ ...f, typeGlob })}
        placeholder="deploy.* or **"
        hint="Empty: any type."
      />
      <TextField label="Event source" value={f.source} onChange={(source) => setF({ ...f, source })} />
      <TextField label="Event module" value={f.module} onChange={(module) => setF({ ...f, module })} />
      <fieldset aria-label="Event severities" className="checks">
        <legend>Event severities (none: any)</legend>
        {EVENT_SEVERITIES.map((sv) => (
          <CheckboxField
            key={sv}
            label={lower(sv)}
            checked={f.severities.includes(sv)}
            onChange={(c) =>
              setF({ ...f, severities: c ? [...f.severities, sv] : f.severities.filter((x) => x !== sv) })
            }
          />
        ))}
      </fieldset>
      <SelectField
        label="Alert severity"
        value={f.alertSeverity}
        onChange={(alertSeverity) => setF({ ...f, alertSeverity })}
        options={ALERT_SEVERITY}
      />
      {rule.kind === 'ABSENCE' && (
        <TextField
          label="Silence window (seconds)"
          type="number"
          value={f.windowSeconds}
          onChange={(windowSeconds) => setF({ ...f, windowSeconds })}
        />
      )}
      <TextField
        label="Summary template"
        value={f.summaryTemplate}
        onChange={(summaryTemplate) => setF({ ...f, summaryTemplate })}
        placeholder="{{type}} on {{source}}"
      />
      <TextField
        label="Dedup key template"
        value={f.dedupKeyTemplate}
        onChange={(dedupKeyTemplate) => setF({ ...f, dedupKeyTemplate })}
        placeholder="{{source}}"
        hint="Empty: the rule and the event source."
      />
      <LabelRows rows={labels} onChange={setLabels} />
      <ConditionRows rows={conditions} onChange={setConditions} />
      {rule.kind === 'MATCH' && (
        <TextField
          label="Resolved by type"
          value={f.resolveTypeGlob}
          onChange={(resolveTypeGlob) => setF({ ...f, resolveTypeGlob })}
          placeholder="gpu.thermal_recovered"
          hint="Such an event resolves the alert with the same dedup key."
        />
      )}
      {rule.kind === 'MATCH' && (
        <TextField
          label="Auto-resolve after (seconds)"
          type="number"
          value={f.autoResolve}
          onChange={(autoResolve) => setF({ ...f, autoResolve })}
          hint="Empty: never by itself."
        />
      )}
      <button type="button" className="plain" onClick={onClose}>
        Cancel
      </button>
    </MutationForm>
  );
}
