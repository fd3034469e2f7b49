/**
 * One device: intent with its version history and a diff between any two versions, the observed
 * configuration, drift (with its diff), Reconcile, a direct intent edit (admins) and proposals of a
 * change (anyone; a second person approves); edit the device's fields and delete it (admins); report
 * the configuration the device runs (the collector's path, for a person reading it off the device).
 * Live: deviceChanged for this device. Its recent alerts and events: devices/DeviceActivity.tsx.
 */
import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link, useLocation } from 'wouter';
import { createTwoFilesPatch } from 'diff';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';
import { graphql } from '../lib/graphql';
import { DiffView } from '../components/Diff';
import { DirectIntentEditForm } from './proposals/ReviewSettings';
import { DeviceRecentAlerts, DeviceRecentEvents } from './devices/DeviceActivity';
import { DeviceProposalFields, DeviceProposals } from './devices/DeviceProposals';

const DeviceQuery = graphql(
  `
    query ConsoleDevice($id: ID!) {
      device(id: $id) {
        id
        name
        site
        role
        platform
        managementAddress
        externalId
        labels
        intent {
          id
          version
          config
        }
        observedConfig {
          config
          observedAt
        }
        drift {
          id
          status
          inSync
          diff
          detail
          createdAt
          intentVersion
          observedAt
        }
      }
      proposals(deviceId: $id, first: 20) {
        edges {
          node {
            ...ConsoleDeviceProposal
          }
        }
      }
    }
  `,
  [DeviceProposalFields],
);
// A query of its own: the server's cost limit multiplies nested lists by their page size (first: 20 here).
const HistoryQuery = graphql(`
  query ConsoleDeviceHistory($id: ID!) {
    device(id: $id) {
      id
      intentHistory(first: 20) {
        edges {
          node {
            id
            version
            config
            comment
            createdAt
            author {
              email
            }
            proposal {
              id
              title
            }
          }
        }
      }
    }
  }
`);
const DeviceChangedOne = graphql(`
  subscription ConsoleDeviceChanged($id: ID) {
    deviceChanged(id: $id) {
      id
      change
      name
    }
  }
`);
const Reconcile = graphql(`
  mutation ConsoleReconcileDevice($id: ID!) {
    reconcileDevice(id: $id) {
      deviceId
      jobId
      queuedAt
    }
  }
`);
const SetIntent = graphql(`
  mutation ConsoleSetDeviceIntent($input: SetDeviceIntentInput!) {
    setDeviceIntent(input: $input) {
      id
      version
    }
  }
`);
const UpdateDevice = graphql(`
  mutation ConsoleUpdateDevice($id: ID!, $input: UpdateDeviceInput!) {
    updateDevice(id: $id, input: $input) {
      id
      name
      site
      role
      platform
      managementAddress
      labels
    }
  }
`);
const DeleteDevice = graphql(`
  mutation ConsoleDeleteDevice($id: ID!) {
    deleteDevice(id: $id)
  }
`);
const ReportObserved = graphql(`
  mutation ConsoleReportObservedConfig($input: ReportObservedConfigInput!) {
    reportObservedConfig(input: $input) {
      id
    }
  }
`);
const OpenProposal = graphql(`
  mutation ConsoleOpenProposal($input: OpenProposalInput!) {
    openProposal(input: $input) {
      id
      status
    }
  }
`);

export function DeviceDetail({ params }: { params: { id: string } }) {
  const me = useMe();
  const { result, refetch, live } = useLiveQuery({
    query: DeviceQuery,
    variables: { id: params.id },
    subscription: DeviceChangedOne,
    subscriptionVariables: { id: params.id },
    // New events are the activity tables' concern (devices/DeviceActivity.tsx), not this page's.
    refetchWhen: (m) => m.deviceChanged.change !== 'events_linked',
  });
  const [history, refetchHistory] = useQuery({ query: HistoryQuery, variables: { id: params.id } });
  useEffect(() => {
    if (live.data && live.data.deviceChanged.change !== 'events_linked')
      refetchHistory({ requestPolicy: 'network-only' });
  }, [live.data, refetchHistory]);
  const [, reconcile] = useMutation(Reconcile);
  const [, setIntent] = useMutation(SetIntent);
  const [, openProposal] = useMutation(OpenProposal);
  const [, updateDevice] = useMutation(UpdateDevice);
  const [, deleteDevice] = useMutation(DeleteDevice);
  const [, reportObserved] = useMutation(ReportObserved);
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const [fields, setFields] = useState({
    name: '',
    site: '',
    role: '',
    platform: '',
    managementAddress: '',
    labels: '{}',
  });
  const setField = (k: keyof typeof fields) => (v: string) => setFields({ ...fields, [k]: v });
  const [observed, setObserved] = useState('');
  const [config, setConfig] = useState<string | null>(null);
  const [comment, setComment] = useState('');
  const [title, setTitle] = useState('');
  const [reconciled, setReconciled] = useState<string | null>(null);
  const d = result.data?.device;
  const versions = useMemo(() => history.data?.device?.intentHistory.edges.map((e) => e.node) ?? [], [history.data]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const versionDiff = useMemo(() => {
    const a = versions.find((v) => String(v.version) === from) ?? versions[1];
    const b = versions.find((v) => String(v.version) === to) ?? versions[0];
    if (!a || !b) return null;
    // Without the ==== separator line createTwoFilesPatch starts with.
    return createTwoFilesPatch(`v${a.version}`, `v${b.version}`, a.config, b.config, '', '', { context: 3 }).replace(
      /^=+\n/,
      '',
    );
  }, [versions, from, to]);
  const draft = config ?? d?.intent?.config ?? '';
  const versionOptions = versions.map((v) => ({ value: String(v.version), label: `v${v.version}` }));

  return (
    <Page
      title={d ? d.name : 'Device'}
      error={result.error}
      loading={result.fetching && !d}
      actions={<Link href="/devices">All devices</Link>}
    >
      {result.data && !d && <p>No such device.</p>}
      {d && (
        <>
          <Card title="Device">
            <dl className="facts">
              <dt>Site</dt>
              <dd>{d.site ?? '—'}</dd>
              <dt>Role</dt>
              <dd>{d.role ?? '—'}</dd>
              <dt>Platform</dt>
              <dd>{d.platform ?? '—'}</dd>
              <dt>Address</dt>
              <dd>{d.managementAddress ?? '—'}</dd>
              <dt>Labels</dt>
              <dd>
                <code>{JSON.stringify(d.labels)}</code>
              </dd>
              <dt>Drift</dt>
              <dd>
                <Badge value={d.drift?.status ?? 'UNKNOWN'} />{' '}
                {d.drift
                  ? `checked ${when(d.drift.createdAt)}${d.drift.intentVersion ? ` against v${d.drift.intentVersion}` : ''}`
                  : 'never reconciled'}{' '}
                {d.drift?.detail ?? ''}
              </dd>
            </dl>
            <div className="row-actions">
              <ActionButton
                variant="primary"
                run={async () => {
                  const r = await reconcile({ id: d.id });
                  if (r.data)
                    setReconciled(
                      `Reconcile queued at ${when(r.data.reconcileDevice.queuedAt)}; the drift updates when it has run.`,
                    );
                  return r;
                }}
              >
                Reconcile
              </ActionButton>
              <button
                type="button"
                className="plain"
                aria-expanded={editing}
                onClick={() => {
                  setFields({
                    name: d.name,
                    site: d.site ?? '',
                    role: d.role ?? '',
                    platform: d.platform ?? '',
                    managementAddress: d.managementAddress ?? '',
                    labels: JSON.stringify(d.labels ?? {}),
                  });
                  setEditing(!editing);
                }}
              >
                Edit device
              </button>
              <ActionButton
                variant="danger"
                deniedBecause={adminOnly(me)}
                confirm={`Delete ${d.name} with its intent history? Its alerts, events and proposals stay, detached.`}
                run={() => deleteDevice({ id: d.id })}
                onDone={() => navigate('/devices')}
              >
                Delete device
              </ActionButton>
              {reconciled && <span aria-live="polite">{reconciled}</span>}
            </div>
          </Card>

          {editing && (
            <MutationForm
              title="Edit device fields"
              submitLabel="Save device"
              deniedBecause={adminOnly(me)}
              onSubmit={async () => {
                let labels: unknown;
                try {
                  labels = JSON.parse(fields.labels || '{}');
                } catch {
                  throw new Error('Labels: not valid JSON (an object of string values, e.g. {"env": "prod"}).');
                }
                const blank = (v: string) => (v.trim() ? v.trim() : null);
                return updateDevice({
                  id: d.id,
                  input: {
                    name: fields.name,
                    site: blank(fields.site),
                    role: blank(fields.role),
                    platform: blank(fields.platform),
                    managementAddress: blank(fields.managementAddress),
                    labels,
                  },
                });
              }}
              onDone={() => setEditing(false)}
            >
              <TextField label="Device name" value={fields.name} onChange={setField('name')} required />
              <TextField label="Device site" value={fields.site} onChange={setField('site')} />
              <TextField label="Device role" value={fields.role} onChange={setField('role')} />
              <TextField label="Platform" value={fields.platform} onChange={setField('platform')} />
              <TextField
                label="Management address"
                value={fields.managementAddress}
                onChange={setField('managementAddress')}
              />
              <TextField
                label="Labels (JSON)"
                value={fields.labels}
                onChange={setField('labels')}
                placeholder='{"env": "prod"}'
              />
            </MutationForm>
          )}

          <DeviceRecentAlerts deviceId={d.id} />
          <DeviceRecentEvents deviceId={d.id} />

          {d.drift && !d.drift.inSync && d.drift.diff && (
            <Card title="Drift: intended (−) versus observed (+)">
              <DiffView diff={d.drift.diff} label="Drift diff" />
            </Card>
          )}

          <div className="grid2">
            <Card title={`Intended configuration${d.intent ? ` (v${d.intent.version})` : ''}`}>
              {d.intent ? <pre aria-label="Intended configuration">{d.intent.config}</pre> : <p>No intent yet.</p>}
            </Card>
            <Card title="Observed configuration">
              {d.observedConfig ? (
                <>
                  <small className="hint">read {when(d.observedConfig.observedAt)}</small>
                  <pre aria-label="Observed configuration">{d.observedConfig.config}</pre>
                </>
              ) : (
                <p>Nothing observed yet (a collector reports it with reportObservedConfig).</p>
              )}
            </Card>
          </div>

          <MutationForm
            title="Report what the device runs"
            submitLabel="Report config"
            onSubmit={() => reportObserved({ input: { deviceId: d.id, config: observed } })}
            onDone={() => setObserved('')}
          >
            <TextField
              label="Running config (read off the device)"
              value={observed}
              onChange={setObserved}
              multiline
              required
            />
            <p className="hint">Recorded as the observed configuration (what a collector does), then reconciled.</p>
          </MutationForm>

          <Card title="Intent history">
            <DataTable
              caption="Intent versions"
              rows={versions}
              rowKey={(v) => v.id}
              columns={[
                { header: 'Version', cell: (v) => `v${v.version}` },
                { header: 'When', cell: (v) => when(v.createdAt) },
                { header: 'Author', cell: (v) => v.author?.email ?? '—' },
                {
                  header: 'From',
                  cell: (v) => (v.proposal ? `proposal: ${v.proposal.title}` : 'direct edit'),
                  wide: true,
                },
                { header: 'Comment', cell: (v) => v.comment ?? '', wide: true },
              ]}
            />
            {versions.length > 1 && (
              <>
                <div className="filters">
                  <SelectField
                    label="Compare from"
                    value={from || String(versions[1].version)}
                    onChange={setFrom}
                    options={versionOptions}
                  />
                  <SelectField
                    label="Compare to"
                    value={to || String(versions[0].version)}
                    onChange={setTo}
                    options={versionOptions}
                  />
                </div>
                <DiffView diff={versionDiff ?? ''} label="Version diff" />
              </>
            )}
          </Card>

          <Card title="Change the intent">
            <TextField label="New intended configuration" value={draft} onChange={setConfig} multiline />
            <div className="grid2">
              <MutationForm
                title="Propose (a second person approves)"
                submitLabel="Propose change"
                onDone={refetch}
                onSubmit={async () => {
                  const r = await openProposal({
                    input: {
                      deviceId: d.id,
                      kind: 'config_change',
                      title: title || `Change ${d.name}`,
                      proposedIntent: draft,
                      reason: comment || null,
                    },
                  });
                  if (!r.error) setTitle('');
                  return r;
                }}
              >
                <TextField label="Proposal title" value={title} onChange={setTitle} />
                <TextField label="Why" value={comment} onChange={setComment} />
              </MutationForm>
              <DirectIntentEditForm
                me={me}
                run={() => setIntent({ input: { deviceId: d.id, config: draft, comment: comment || null } })}
                onDone={() => {
                  setConfig(null);
                  refetch();
                  refetchHistory({ requestPolicy: 'network-only' });
                }}
              />
            </div>
          </Card>

          <DeviceProposals proposals={result.data?.proposals.edges.map((e) => e.node)} />
        </>
      )}
    </Page>
  );
}
