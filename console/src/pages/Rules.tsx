/** Alert rules (match and heartbeat/absence) and maintenance windows. Members read; admins create, edit and delete. */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';
import { graphql, type ResultOf, type VariablesOf } from '../lib/graphql';
import { ConditionRows, LabelRows } from '../components/MatchRows';
import { conditionsOf, labelsOf, ruleMatchSummary, type ConditionRow, type LabelRow } from '../lib/match-rows';
import { ALERT_SEVERITY, EditRuleForm, orNull, UpdateRule } from './RuleEdit';
import { RuleSuggestions } from './RuleSuggestions';

const RulesQuery = graphql(`
  query ConsoleRules {
    alertRules {
      id
      name
      kind
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
    maintenanceWindows {
      id
      name
      startsAt
      endsAt
      repeatEverySeconds
      source
      deviceId
      matchLabels
      activeNow
    }
    devices(first: 200) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);
const CreateRule = graphql(`
  mutation ConsoleCreateAlertRule($input: CreateAlertRuleInput!) {
    createAlertRule(input: $input) {
      id
      name
    }
  }
`);
const DeleteRule = graphql(`
  mutation ConsoleDeleteAlertRule($id: ID!) {
    deleteAlertRule(id: $id)
  }
`);
const CreateWindow = graphql(`
  mutation ConsoleCreateMaintenanceWindow($input: CreateMaintenanceWindowInput!) {
    createMaintenanceWindow(input: $input) {
      id
      name
    }
  }
`);
const UpdateWindow = graphql(`
  mutation ConsoleUpdateMaintenanceWindow($id: ID!, $input: UpdateMaintenanceWindowInput!) {
    updateMaintenanceWindow(id: $id, input: $input) {
      id
      name
      startsAt
      endsAt
      repeatEverySeconds
      source
      deviceId
      matchLabels
      activeNow
    }
  }
`);
const DeleteWindow = graphql(`
  mutation ConsoleDeleteMaintenanceWindow($id: ID!) {
    deleteMaintenanceWindow(id: $id)
  }
`);

const KINDS = [
  { value: 'MATCH', label: 'match: each matching event opens or bumps an alert' },
  { value: 'ABSENCE', label: 'heartbeat: silence for a window opens an alert' },
] as const;
const SEVERITY_FILTER = ['', 'INFO', 'WARNING', 'CRITICAL'] as const;

export type Rule = ResultOf<typeof RulesQuery>['alertRules'][number];
type Window = ResultOf<typeof RulesQuery>['maintenanceWindows'][number];

/** `<input type=datetime-local>` value → ISO-8601 (local time of the browser). */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : '');
/** ISO-8601 → `<input type=datetime-local>` value (local time of the browser). */
function localOf(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
/** A JSON field's text parsed (empty: `empty`); a parse error names the field (the server checks the shape). */
function parseJson(text: string, field: string, empty: unknown): unknown {
  if (!text.trim()) return empty;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${field}: not valid JSON.`);
  }
}

/** Edits a maintenance window's name, span, repeat and source scope. */
function EditWindowForm({
  win,
  devices,
  denied,
  onClose,
}: {
  win: Window;
  devices: { id: string; name: string }[];
  denied: string | null;
  onClose: () => void;
}) {
  const [, updateWindow] = useMutation(UpdateWindow);
  const [f, setF] = useState({
    name: win.name,
    startsAt: localOf(win.startsAt),
    endsAt: localOf(win.endsAt),
    source: win.source ?? '',
    repeat: win.repeatEverySeconds ? String(win.repeatEverySeconds) : '',
    deviceId: win.deviceId ?? '',
    labels: Object.keys(win.matchLabels ?? {}).length ? JSON.stringify(win.matchLabels) : '',
  });
  const repeatOptions = [
    { value: '', label: 'no' },
    { value: '86400', label: 'daily' },
    { value: '604800', label: 'weekly' },
  ];
  if (f.repeat && !repeatOptions.some((o) => o.value === f.repeat))
    repeatOptions.push({ value: f.repeat, label: `every ${Number(f.repeat) / 3600} h` });
  return (
    <MutationForm
      title={`Edit window ${win.name}`}
      submitLabel="Save window"
      deniedBecause={denied}
      onSubmit={() =>
        updateWindow({
          id: win.id,
          input: {
            name: f.name,
            startsAt: isoOf(f.startsAt),
            endsAt: isoOf(f.endsAt),
            source: orNull(f.source),
            repeatEverySeconds: f.repeat ? Number(f.repeat) : null,
            deviceId: f.deviceId || null,
            matchLabels: parseJson(f.labels, 'Only labels', {}),
          },
        })
      }
      onDone={onClose}
    >
      <TextField label="Window name" value={f.name} onChange={(name) => setF({ ...f, name })} required />
      <TextField
        label="Starts"
        type="datetime-local"
        value={f.startsAt}
        onChange={(startsAt) => setF({ ...f, startsAt })}
        required
      />
      <TextField
        label="Ends"
        type="datetime-local"
        value={f.endsAt}
        onChange={(endsAt) => setF({ ...f, endsAt })}
        required
      />
      <TextField label="Only source" value={f.source} onChange={(source) => setF({ ...f, source })} />
      <SelectField
        label="Repeats"
        value={f.repeat}
        onChange={(repeat) => setF({ ...f, repeat })}
        options={repeatOptions}
      />
      <SelectField
        label="Only device"
        value={f.deviceId}
        onChange={(deviceId) => setF({ ...f, deviceId })}
        options={[{ value: '', label: 'any device' }, ...devices.map((d) => ({ value: d.id, label: d.name }))]}
      />
      <TextField
        label="Only labels (JSON)"
        value={f.labels}
        onChange={(labels) => setF({ ...f, labels })}
        placeholder='{"env": "prod"}'
      />
      <button type="button" className="plain" onClick={onClose}>
        Cancel
      </button>
    </MutationForm>
  );
}

export function Rules() {
  const me = useMe();
  const denied = adminOnly(me);
  const [result, refetch] = useQuery({ query: RulesQuery });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, createRule] = useMutation(CreateRule);
  const [, updateRule] = useMutation(UpdateRule);
  const [, deleteRule] = useMutation(DeleteRule);
  const [, createWindow] = useMutation(CreateWindow);
  const [, deleteWindow] = useMutation(DeleteWindow);
  const blankRule = {
    kind: 'MATCH' as 'MATCH' | 'ABSENCE',
    name: '',
    typeGlob: '',
    source: '',
    module: '',
    severity: '' as (typeof SEVERITY_FILTER)[number],
    alertSeverity: 'WARNING' as (typeof ALERT_SEVERITY)[number],
    windowSeconds: '300',
    summaryTemplate: '',
    resolveTypeGlob: '',
    autoResolve: '',
  };
  const [rule, setRule] = useState(blankRule);
  const [ruleLabels, setRuleLabels] = useState<LabelRow[]>([]);
  const [ruleConditions, setRuleConditions] = useState<ConditionRow[]>([]);
  const blankWindow = { name: '', startsAt: '', endsAt: '', source: '', repeat: '' };
  const [win, setWin] = useState(blankWindow);
  const [editRule, setEditRule] = useState<string | null>(null);
  const [editWin, setEditWin] = useState<string | null>(null);
  const ruleBeingEdited = result.data?.alertRules.find((r) => r.id === editRule);
  const windowBeingEdited = result.data?.maintenanceWindows.find((w) => w.id === editWin);

  return (
    <Page title="Alert rules" error={result.error} loading={result.fetching && !result.data}>
      <DataTable
        caption="Alert rules"
        rows={result.data?.alertRules}
        rowKey={(r) => r.id}
        empty="No rules: no event opens an alert until a rule matches it."
        columns={[
          { header: 'Name', cell: (r) => r.name },
          { header: 'Kind', cell: (r) => (r.kind === 'ABSENCE' ? `heartbeat (${r.windowSeconds} s)` : 'match') },
          { header: 'Matches', cell: (r) => ruleMatchSummary(r) },
          { header: 'Opens', cell: (r) => <Badge value={r.alertSeverity} /> },
          { header: 'Enabled', cell: (r) => (r.enabled ? 'yes' : 'no') },
          {
            header: 'Actions',
            cell: (r) => (
              <div className="row-actions" role="group" aria-label={`Actions for ${r.name}`}>
                <button
                  type="button"
                  className="plain"
                  aria-label={`Edit ${r.name}`}
                  aria-expanded={editRule === r.id}
                  onClick={() => setEditRule(editRule === r.id ? null : r.id)}
                >
                  Edit
                </button>
                <ActionButton
                  run={() => updateRule({ id: r.id, input: { enabled: !r.enabled } })}
                  deniedBecause={denied}
                >
                  {r.enabled ? 'Disable' : 'Enable'}
                </ActionButton>
                <ActionButton
                  variant="danger"
                  confirm={`Delete the rule ${r.name}? Its alerts stay.`}
                  run={() => deleteRule({ id: r.id })}
                  deniedBecause={denied}
                  onDone={reload}
                >
                  Delete
                </ActionButton>
              </div>
            ),
          },
        ]}
      />
      {ruleBeingEdited && (
        <EditRuleForm
          key={ruleBeingEdited.id}
          rule={ruleBeingEdited}
          denied={denied}
          onClose={() => setEditRule(null)}
        />
      )}
      <MutationForm
        title="New alert rule"
        submitLabel="Create rule"
        deniedBecause={denied}
        onSubmit={async () => {
          const input: VariablesOf<typeof CreateRule>['input'] = {
            name: rule.name,
            kind: rule.kind,
            alertSeverity: rule.alertSeverity,
          };
          if (rule.typeGlob) input.typeGlob = rule.typeGlob;
          if (rule.source) input.source = rule.source;
          if (rule.module) input.module = rule.module;
          if (rule.severity) input.severities = [rule.severity];
          if (rule.summaryTemplate) input.summaryTemplate = rule.summaryTemplate;
          if (rule.kind === 'ABSENCE') input.windowSeconds = Number(rule.windowSeconds);
          if (ruleLabels.length) input.labels = labelsOf(ruleLabels);
          if (ruleConditions.length) input.payloadConditions = conditionsOf(ruleConditions);
          if (rule.kind === 'MATCH' && rule.resolveTypeGlob) input.resolveTypeGlob = rule.resolveTypeGlob;
          if (rule.kind === 'MATCH' && rule.autoResolve) input.autoResolveAfterSeconds = Number(rule.autoResolve);
          const r = await createRule({ input });
          if (!r.error) {
            setRule(blankRule);
            setRuleLabels([]);
            setRuleConditions([]);
          }
          return r;
        }}
        onDone={reload}
      >
        <SelectField label="Kind" value={rule.kind} onChange={(kind) => setRule({ ...rule, kind })} options={KINDS} />
        <TextField label="Rule name" value={rule.name} onChange={(name) => setRule({ ...rule, name })} required />
        <TextField
          label="Event type"
          value={rule.typeGlob}
          onChange={(typeGlob) => setRule({ ...rule, typeGlob })}
          placeholder="deploy.* or **"
        />
        <TextField label="Event source" value={rule.source} onChange={(source) => setRule({ ...rule, source })} />
        <TextField label="Event module" value={rule.module} onChange={(module) => setRule({ ...rule, module })} />
        <SelectField
          label="Event severity"
          value={rule.severity}
          onChange={(severity) => setRule({ ...rule, severity })}
          options={SEVERITY_FILTER}
        />
        <SelectField
          label="Alert severity"
          value={rule.alertSeverity}
          onChange={(alertSeverity) => setRule({ ...rule, alertSeverity })}
          options={ALERT_SEVERITY}
        />
        {rule.kind === 'ABSENCE' && (
          <TextField
            label="Silence window (seconds)"
            type="number"
            value={rule.windowSeconds}
            onChange={(windowSeconds) => setRule({ ...rule, windowSeconds })}
          />
        )}
        <TextField
          label="Summary template"
          value={rule.summaryTemplate}
          onChange={(summaryTemplate) => setRule({ ...rule, summaryTemplate })}
          placeholder="{{type}} on {{source}}"
        />
        <LabelRows rows={ruleLabels} onChange={setRuleLabels} />
        <ConditionRows rows={ruleConditions} onChange={setRuleConditions} />
        {rule.kind === 'MATCH' && (
          <TextField
            label="Resolved by type"
            value={rule.resolveTypeGlob}
            onChange={(resolveTypeGlob) => setRule({ ...rule, resolveTypeGlob })}
            placeholder="gpu.thermal_recovered"
          />
        )}
        {rule.kind === 'MATCH' && (
          <TextField
            label="Auto-resolve after (seconds)"
            type="number"
            value={rule.autoResolve}
            onChange={(autoResolve) => setRule({ ...rule, autoResolve })}
          />
        )}
      </MutationForm>
      <RuleSuggestions denied={denied} onEnabled={reload} />

      <Card title="Maintenance windows">
        <DataTable
          caption="Maintenance windows"
          rows={result.data?.maintenanceWindows}
          rowKey={(w) => w.id}
          empty="No maintenance windows."
          columns={[
            { header: 'Name', cell: (w) => w.name },
            { header: 'From', cell: (w) => when(w.startsAt) },
            { header: 'Until', cell: (w) => when(w.endsAt) },
            {
              header: 'Repeats',
              cell: (w) => (w.repeatEverySeconds ? `every ${w.repeatEverySeconds / 3600} h` : 'no'),
              wide: true,
            },
            {
              header: 'Scope',
              cell: (w) =>
                [
                  w.source && `source ${w.source}`,
                  w.deviceId &&
                    `device ${result.data?.devices.edges.find((e) => e.node.id === w.deviceId)?.node.name ?? w.deviceId.slice(0, 8)}`,
                  Object.keys(w.matchLabels ?? {}).length ? JSON.stringify(w.matchLabels) : null,
                ]
                  .filter(Boolean)
                  .join(' · ') || 'everything',
              wide: true,
            },
            { header: 'Active', cell: (w) => (w.activeNow ? <Badge value="active" /> : 'no') },
            {
              header: 'Actions',
              cell: (w) => (
                <div className="row-actions" role="group" aria-label={`Actions for ${w.name}`}>
                  <button
                    type="button"
                    className="plain"
                    aria-label={`Edit ${w.name}`}
                    aria-expanded={editWin === w.id}
                    onClick={() => setEditWin(editWin === w.id ? null : w.id)}
                  >
                    Edit
                  </button>
                  <ActionButton
                    variant="danger"
                    run={() => deleteWindow({ id: w.id })}
                    deniedBecause={denied}
                    onDone={reload}
                  >
                    Delete
                  </ActionButton>
                </div>
              ),
            },
          ]}
        />
        {windowBeingEdited && (
          <EditWindowForm
            key={windowBeingEdited.id}
            win={windowBeingEdited}
            devices={result.data?.devices.edges.map((e) => e.node) ?? []}
            denied={denied}
            onClose={() => setEditWin(null)}
          />
        )}
        <MutationForm
          title="New maintenance window"
          submitLabel="Create window"
          deniedBecause={denied}
          onSubmit={async () => {
            const input: VariablesOf<typeof CreateWindow>['input'] = {
              name: win.name,
              startsAt: isoOf(win.startsAt),
              endsAt: isoOf(win.endsAt),
            };
            if (win.source) input.source = win.source;
            if (win.repeat) input.repeatEverySeconds = Number(win.repeat);
            const r = await createWindow({ input });
            if (!r.error) setWin(blankWindow);
            return r;
          }}
          onDone={reload}
        >
          <TextField label="Window name" value={win.name} onChange={(name) => setWin({ ...win, name })} required />
          <TextField
            label="Starts"
            type="datetime-local"
            value={win.startsAt}
            onChange={(startsAt) => setWin({ ...win, startsAt })}
            required
          />
          <TextField
            label="Ends"
            type="datetime-local"
            value={win.endsAt}
            onChange={(endsAt) => setWin({ ...win, endsAt })}
            required
          />
          <TextField label="Only source" value={win.source} onChange={(source) => setWin({ ...win, source })} />
          <SelectField
            label="Repeats"
            value={win.repeat}
            onChange={(repeat) => setWin({ ...win, repeat })}
            options={[
              { value: '', label: 'no' },
              { value: '86400', label: 'daily' },
              { value: '604800', label: 'weekly' },
            ]}
          />
        </MutationForm>
      </Card>
    </Page>
  );
}
