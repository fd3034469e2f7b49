/**
 * Change proposals by status, live (proposalChanged). Approve follows the four-eyes rule (a human other
 * than the proposer), shown as the reason on the disabled button; Deny records a reason. Open a
 * proposal for a device (its current intent as the starting point, or an action), and Revise one
 * (proposer only: a new revision; an approval given earlier is void).
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link } from 'wouter';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { approvalDenial } from '../lib/permissions';
import { when } from '../lib/format';
import type { Me } from '../lib/session';
import { graphql, readFragment, type FragmentOf, type ResultOf } from '../lib/graphql';

/** What the revise form starts from. */
const RevisionFields = graphql(`
  fragment ConsoleProposalRevision on Proposal {
    id
    title
    kind
    status
    revision
    reason
    action
    proposedIntent
    proposer {
      id
    }
    device {
      id
    }
  }
`);

const ProposalsQuery = graphql(
  `
    query ConsoleProposals($status: ProposalStatus, $first: Int) {
      proposals(status: $status, first: $first) {
        edges {
          node {
            id
            title
            kind
            status
            revision
            reason
            action
            proposedIntent
            denialReason
            failureReason
            createdAt
            proposer {
              id
              email
            }
            approver {
              email
            }
            deniedBy {
              email
            }
            device {
              id
              name
            }
            ...ConsoleProposalRevision
          }
        }
      }
    }
  `,
  [RevisionFields],
);
const ProposalChangedSubscription = graphql(`
  subscription ConsoleProposalChanged {
    proposalChanged {
      id
      change
      status
    }
  }
`);
const ApproveProposal = graphql(`
  mutation ConsoleApproveProposal($id: ID!, $revision: Int) {
    approveProposal(id: $id, revision: $revision) {
      id
      status
      approvedAt
      approver {
        email
      }
    }
  }
`);
const DenyProposal = graphql(`
  mutation ConsoleDenyProposal($id: ID!, $reason: String) {
    denyProposal(id: $id, reason: $reason) {
      id
      status
      denialReason
    }
  }
`);

const UpdateProposal = graphql(`
  mutation ConsoleUpdateProposal($id: ID!, $input: UpdateProposalInput!) {
    updateProposal(id: $id, input: $input) {
      id
      title
      kind
      status
      revision
      reason
      action
      proposedIntent
      approver {
        email
      }
    }
  }
`);
const OpenProposal = graphql(`
  mutation ConsoleOpenProposalFromList($input: OpenProposalInput!) {
    openProposal(input: $input) {
      id
      status
    }
  }
`);
const DeviceChoicesQuery = graphql(`
  query ConsoleProposalDevices {
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
const DeviceIntentQuery = graphql(`
  query ConsoleProposalDeviceIntent($id: ID!) {
    device(id: $id) {
      id
      intent {
        version
        config
      }
    }
  }
`);

type Proposal = ResultOf<typeof ProposalsQuery>['proposals']['edges'][number]['node'];

/** Why `me` may not revise the proposal (the server's rule: its proposer, while proposed or approved). */
function reviseDenial(me: Me, p: { status: Proposal['status']; proposer: { id: string } }): string | null {
  if (p.status !== 'PROPOSED' && p.status !== 'APPROVED') return `Already ${p.status.toLowerCase()}.`;
  return me.id === p.proposer.id ? null : 'Only the proposer can revise a proposal; open a new one instead.';
}

/** A new revision of the proposal: title, reason and the proposed intent or action. */
function ReviseForm({
  proposal,
  me,
  onClose,
}: {
  proposal: FragmentOf<typeof RevisionFields>;
  me: Me;
  onClose: () => void;
}) {
  const p = readFragment(RevisionFields, proposal);
  const [, update] = useMutation(UpdateProposal);
  const [devices] = useQuery({ query: DeviceChoicesQuery });
  const [f, setF] = useState({
    title: p.title,
    kind: p.kind,
    deviceId: p.device?.id ?? '',
    reason: p.reason ?? '',
    intent: p.proposedIntent ?? '',
    action: p.action ?? '',
  });
  const deviceOptions = [
    ...(p.device ? [] : [{ value: '', label: 'deleted device: choose another' }]),
    ...(devices.data?.devices.edges.map((e) => ({ value: e.node.id, label: e.node.name })) ?? []),
  ];
  return (
    <MutationForm
      title={`Revise ${p.title} (revision ${p.revision})`}
      submitLabel="Save revision"
      deniedBecause={reviseDenial(me, p)}
      onSubmit={() =>
        update({
          id: p.id,
          input: {
            title: f.title,
            kind: f.kind,
            reason: f.reason || null,
            ...(f.deviceId ? { deviceId: f.deviceId } : {}),
            ...(p.action ? { action: f.action } : { proposedIntent: f.intent }),
          },
        })
      }
      onDone={onClose}
    >
      <TextField label="Revised title" value={f.title} onChange={(title) => setF({ ...f, title })} />
      <TextField label="Revised kind" value={f.kind} onChange={(kind) => setF({ ...f, kind })} />
      <SelectField
        label="Revised target device"
        value={f.deviceId}
        onChange={(deviceId) => setF({ ...f, deviceId })}
        options={deviceOptions}
      />
      <TextField label="Revised reason" value={f.reason} onChange={(reason) => setF({ ...f, reason })} />
      {p.action ? (
        <TextField label="Revised action" value={f.action} onChange={(action) => setF({ ...f, action })} />
      ) : (
        <TextField label="Revised intent" value={f.intent} onChange={(intent) => setF({ ...f, intent })} multiline />
      )}
      <button type="button" className="plain" onClick={onClose}>
        Cancel
      </button>
    </MutationForm>
  );
}

/** Opens a proposal for a device: its current intent, edited, or an action such as `reconcile`. */
function OpenProposalForm({ onDone }: { onDone: () => void }) {
  const [devices] = useQuery({ query: DeviceChoicesQuery });
  const [, open] = useMutation(OpenProposal);
  const [deviceId, setDeviceId] = useState('');
  const [what, setWhat] = useState<'intent' | 'reconcile'>('intent');
  const [title, setTitle] = useState('');
  const [kind, setKind] = useState('config_change');
  const [reason, setReason] = useState('');
  const [intent, setIntent] = useState<string | null>(null);
  const [current] = useQuery({ query: DeviceIntentQuery, variables: { id: deviceId }, pause: !deviceId });
  const options = [
    { value: '', label: 'choose a device' },
    ...(devices.data?.devices.edges.map((e) => ({ value: e.node.id, label: e.node.name })) ?? []),
  ];
  const base = current.data?.device?.id === deviceId ? (current.data.device.intent?.config ?? '') : '';
  useEffect(() => setIntent(null), [deviceId]);
  return (
    <MutationForm
      title="Open a proposal"
      submitLabel="Open proposal"
      onSubmit={async () => {
        const r = await open({
          input: {
            deviceId,
            title,
            kind,
            reason: reason || null,
            ...(what === 'reconcile' ? { action: 'reconcile' } : { proposedIntent: intent ?? base }),
          },
        });
        if (!r.error) {
          setTitle('');
          setReason('');
          setIntent(null);
        }
        return r;
      }}
      onDone={onDone}
    >
      <SelectField label="Target device" value={deviceId} onChange={setDeviceId} options={options} />
      <SelectField
        label="Change"
        value={what}
        onChange={setWhat}
        options={[
          { value: 'intent', label: 'a new intended configuration' },
          { value: 'reconcile', label: 'run a reconcile' },
        ]}
      />
      <TextField label="Proposal title" value={title} onChange={setTitle} required />
      <TextField
        label="Proposal kind"
        value={kind}
        onChange={setKind}
        hint="A lowercase identifier; outbound triggers select on it."
      />
      <TextField label="Why (shown to the approver)" value={reason} onChange={setReason} />
      {what === 'intent' && (
        <TextField
          label="Proposed intent"
          value={intent ?? base}
          onChange={setIntent}
          multiline
          hint={
            !deviceId
              ? 'Choose a device: its current intent is the starting point.'
              : current.data?.device?.intent
                ? `Starts from v${current.data.device.intent.version}, the current intent.`
                : 'The device has no intent yet.'
          }
        />
      )}
    </MutationForm>
  );
}

const STATUSES = ['PROPOSED', 'APPROVED', 'APPLIED', 'FAILED', 'DENIED', ''] as const;

export function Proposals() {
  const me = useMe();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('PROPOSED');
  const [denyReason, setDenyReason] = useState('');
  const [revising, setRevising] = useState<string | null>(null);
  const { result, refetch } = useLiveQuery({
    query: ProposalsQuery,
    variables: { status: status || null, first: 100 },
    subscription: ProposalChangedSubscription,
  });
  const [, approve] = useMutation(ApproveProposal);
  const [, deny] = useMutation(DenyProposal);
  const beingRevised = result.data?.proposals.edges.map((e) => e.node).find((p) => p.id === revising);
  return (
    <Page title="Proposals" error={result.error} loading={result.fetching && !result.data}>
      <div className="filters">
        <SelectField label="Status" value={status} onChange={setStatus} options={STATUSES} />
        <TextField label="Reason for denying" value={denyReason} onChange={setDenyReason} />
      </div>
      <DataTable
        caption="Proposals"
        rows={result.data?.proposals.edges.map((e) => e.node)}
        rowKey={(p) => p.id}
        empty="No proposals with this status. Propose a change from a device's page."
        columns={[
          { header: 'Title', cell: (p) => p.title },
          {
            header: 'Device',
            cell: (p) => (p.device ? <Link href={`/devices/${p.device.id}`}>{p.device.name}</Link> : '—'),
          },
          {
            header: 'Change',
            cell: (p) =>
              p.action ? (
                <code>{p.action}</code>
              ) : p.proposedIntent ? (
                <details>
                  <summary>new intent</summary>
                  <pre>{p.proposedIntent}</pre>
                </details>
              ) : (
                '—'
              ),
            wide: true,
          },
          { header: 'Proposer', cell: (p) => p.proposer.email },
          {
            header: 'Status',
            cell: (p) => (
              <>
                <Badge value={p.status} /> {p.denialReason ?? p.failureReason ?? ''}
              </>
            ),
          },
          { header: 'Revision', cell: (p) => `r${p.revision}`, wide: true },
          { header: 'Decided by', cell: (p) => p.approver?.email ?? p.deniedBy?.email ?? '—', wide: true },
          { header: 'Opened', cell: (p) => when(p.createdAt), wide: true },
          {
            header: 'Decide',
            cell: (p) => {
              const closed = p.status !== 'PROPOSED' ? `Already ${p.status.toLowerCase()}.` : null;
              return (
                <div className="row-actions" role="group" aria-label={`Decide ${p.title}`}>
                  <ActionButton
                    variant="primary"
                    run={() => approve({ id: p.id, revision: p.revision })}
                    deniedBecause={closed ?? approvalDenial(me, p.proposer.id)}
                  >
                    Approve
                  </ActionButton>
                  <ActionButton
                    variant="danger"
                    run={() => deny({ id: p.id, reason: denyReason || null })}
                    deniedBecause={closed}
                  >
                    Deny
                  </ActionButton>
                  <span className="action">
                    <button
                      type="button"
                      className="plain"
                      aria-label={`Revise ${p.title}`}
                      aria-expanded={revising === p.id}
                      disabled={!!reviseDenial(me, p)}
                      onClick={() => setRevising(revising === p.id ? null : p.id)}
                    >
                      Revise
                    </button>
                    {reviseDenial(me, p) && <small className="reason">{reviseDenial(me, p)}</small>}
                  </span>
                </div>
              );
            },
          },
        ]}
      />
      {beingRevised && (
        <ReviseForm
          key={`${beingRevised.id}:${beingRevised.revision}`}
          proposal={beingRevised}
          me={me}
          onClose={() => setRevising(null)}
        />
      )}
      <OpenProposalForm onDone={refetch} />
    </Page>
  );
}
