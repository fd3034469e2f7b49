/**
 * Change proposals by status, live (proposalChanged). Approve follows the four-eyes rule (a human other
 * than the proposer), shown as the reason on the disabled button; Deny records a reason.
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { Link } from 'wouter';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/Field';
import { Badge, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { approvalDenial } from '../lib/permissions';
import { when } from '../lib/format';
import { graphql } from '../lib/graphql';

const ProposalsQuery = graphql(`
  query ConsoleProposals($status: ProposalStatus, $first: Int) {
    proposals(status: $status, first: $first) {
      edges {
        node {
          id title kind status revision reason action proposedIntent denialReason failureReason createdAt
          proposer { id email } approver { email } deniedBy { email } device { id name }
        }
      }
    }
  }
`);
const ProposalChangedSubscription = graphql(`
  subscription ConsoleProposalChanged { proposalChanged { id change status } }
`);
const ApproveProposal = graphql(`
  mutation ConsoleApproveProposal($id: ID!, $revision: Int) { approveProposal(id: $id, revision: $revision) { id status approvedAt approver { email } } }
`);
const DenyProposal = graphql(`
  mutation ConsoleDenyProposal($id: ID!, $reason: String) { denyProposal(id: $id, reason: $reason) { id status denialReason } }
`);

const STATUSES = ['PROPOSED', 'APPROVED', 'APPLIED', 'FAILED', 'DENIED', ''] as const;

export function Proposals() {
  const me = useMe();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('PROPOSED');
  const [denyReason, setDenyReason] = useState('');
  const { result } = useLiveQuery({ query: ProposalsQuery, variables: { status: status || null, first: 100 }, subscription: ProposalChangedSubscription });
  const [, approve] = useMutation(ApproveProposal);
  const [, deny] = useMutation(DenyProposal);
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
          { header: 'Device', cell: (p) => (p.device ? <Link href={`/devices/${p.device.id}`}>{p.device.name}</Link> : '—') },
          { header: 'Change', cell: (p) => (p.action ? <code>{p.action}</code> : p.proposedIntent ? <details><summary>new intent</summary><pre>{p.proposedIntent}</pre></details> : '—'), wide: true },
          { header: 'Proposer', cell: (p) => p.proposer.email },
          { header: 'Status', cell: (p) => <><Badge value={p.status} /> {p.denialReason ?? p.failureReason ?? ''}</> },
          { header: 'Decided by', cell: (p) => p.approver?.email ?? p.deniedBy?.email ?? '—', wide: true },
          { header: 'Opened', cell: (p) => when(p.createdAt), wide: true },
          {
            header: 'Decide',
            cell: (p) => {
              const closed = p.status !== 'PROPOSED' ? `Already ${p.status.toLowerCase()}.` : null;
              return (
                <div className="row-actions" role="group" aria-label={`Decide ${p.title}`}>
                  <ActionButton variant="primary" run={() => approve({ id: p.id, revision: p.revision })} deniedBecause={closed ?? approvalDenial(me, p.proposer.id)}>
                    Approve
                  </ActionButton>
                  <ActionButton variant="danger" run={() => deny({ id: p.id, reason: denyReason || null })} deniedBecause={closed}>
                    Deny
                  </ActionButton>
                </div>
              );
            },
          },
        ]}
      />
    </Page>
  );
}
