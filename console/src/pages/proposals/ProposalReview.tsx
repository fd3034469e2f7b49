/**
 * What a reviewer reads before deciding: who proposed it, which revision, why (the reason), and the
 * change as a unified diff of the device's current intent (−) against the proposed one (+), the same
 * diff the device page shows for drift. Approve names the revision read, so a revision saved meanwhile
 * makes the approval fail rather than approve something unseen.
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { ActionButton } from '../../components/ActionButton';
import { DiffView } from '../../components/Diff';
import { TextField } from '../../components/Field';
import { Badge, Card } from '../../components/Page';
import { approvalDenial } from '../../lib/permissions';
import { when } from '../../lib/format';
import type { Me } from '../../lib/session';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';

export const ReviewFields = graphql(`
  fragment ConsoleProposalReview on Proposal {
    id
    title
    kind
    status
    revision
    reason
    action
    diff
    createdAt
    proposer {
      id
      email
    }
    device {
      id
      name
    }
  }
`);

/** The review card and the list's row buttons decide with the same two documents. */
export const ApproveProposal = graphql(`
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
export const DenyProposal = graphql(`
  mutation ConsoleDenyProposal($id: ID!, $reason: String) {
    denyProposal(id: $id, reason: $reason) {
      id
      status
      denialReason
    }
  }
`);

/** Lines the diff adds and removes (file headers aside), for a one-line summary in the list. */
export function diffStat(diff: string | null | undefined): string | null {
  if (diff == null) return null;
  let add = 0;
  let del = 0;
  for (const l of diff.split('\n')) {
    if (l.startsWith('+') && !l.startsWith('+++')) add++;
    else if (l.startsWith('-') && !l.startsWith('---')) del++;
  }
  return add + del === 0 ? 'no change to the intent' : `+${add} −${del} lines`;
}

/** Whether `me` may decide it now (null) or why not. */
export function decideDenial(me: Me, p: { status: string; proposer: { id: string } }, approving: boolean) {
  if (p.status !== 'PROPOSED') return `Already ${p.status.toLowerCase()}.`;
  return approving ? approvalDenial(me, p.proposer.id) : null;
}

export function ProposalReview({
  proposal,
  me,
  onClose,
}: {
  proposal: FragmentOf<typeof ReviewFields>;
  me: Me;
  onClose: () => void;
}) {
  const p = readFragment(ReviewFields, proposal);
  const [, approve] = useMutation(ApproveProposal);
  const [, deny] = useMutation(DenyProposal);
  const [denyReason, setDenyReason] = useState('');
  return (
    <Card title={`Review: ${p.title}`}>
      <dl className="facts">
        <dt>Proposer</dt>
        <dd>{p.proposer.email}</dd>
        <dt>Revision</dt>
        <dd>r{p.revision}</dd>
        <dt>Device</dt>
        <dd>{p.device?.name ?? 'deleted'}</dd>
        <dt>Kind</dt>
        <dd>{p.kind}</dd>
        <dt>Status</dt>
        <dd>
          <Badge value={p.status} />
        </dd>
        <dt>Opened</dt>
        <dd>{when(p.createdAt)}</dd>
      </dl>
      <h3>Reason</h3>
      <p aria-label="Proposal reason" className="reason-text">
        {p.reason || 'The proposer gave no reason.'}
      </p>
      <h3>Change</h3>
      {p.action ? (
        <p>
          Runs the action <code>{p.action}</code>; the intent does not change.
        </p>
      ) : p.diff == null ? (
        <p>The device was deleted: there is no current intent to compare with.</p>
      ) : p.diff === '' ? (
        <p>The proposed intent equals the current intent.</p>
      ) : (
        <DiffView diff={p.diff} label="Proposed change: current intent (−) against proposed (+)" />
      )}
      <div className="row-actions" role="group" aria-label={`Decide ${p.title}`}>
        <ActionButton
          variant="primary"
          run={() => approve({ id: p.id, revision: p.revision })}
          deniedBecause={decideDenial(me, p, true)}
          label={`Approve revision ${p.revision}`}
        >
          Approve
        </ActionButton>
        <TextField label="Why deny (shown to the proposer)" value={denyReason} onChange={setDenyReason} />
        <ActionButton
          variant="danger"
          run={() => deny({ id: p.id, reason: denyReason || null })}
          deniedBecause={decideDenial(me, p, false)}
        >
          Deny
        </ActionButton>
        <button type="button" className="plain" onClick={onClose}>
          Close review
        </button>
      </div>
    </Card>
  );
}
