/**
 * The proposals page's forms: Revise (the proposer's new revision; an approval given earlier is void)
 * and Open a proposal for a device (its current intent as the starting point, or an action).
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { MutationForm, SelectField, TextField } from '../../components/Field';
import type { Me } from '../../lib/session';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';

/** What the revise form starts from. */
export const RevisionFields = graphql(`
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

/** Why `me` may not revise the proposal (the server's rule: its proposer, while proposed or approved). */
export function reviseDenial(me: Me, p: { status: string; proposer: { id: string } }): string | null {
  if (p.status !== 'PROPOSED' && p.status !== 'APPROVED') return `Already ${p.status.toLowerCase()}.`;
  return me.id === p.proposer.id ? null : 'Only the proposer can revise a proposal; open a new one instead.';
}

/** A new revision of the proposal: title, reason and the proposed intent or action. */
export function ReviseForm({
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
export function OpenProposalForm({ onDone }: { onDone: () => void }) {
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
