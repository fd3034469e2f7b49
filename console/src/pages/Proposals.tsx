/**
 * Change proposals by status, live (proposalChanged). Review opens what the reviewer decides on: the
 * proposer, the revision, the reason and a unified diff of the current intent against the proposed one
 * (proposals/ProposalReview.tsx). Approve follows the four-eyes rule (a human other than the proposer),
 * shown as the reason on the disabled button; Deny records a reason. Open a proposal for a device, and
 * Revise one (proposer only: a new revision; an approval given earlier is void): proposals/ProposalForms.tsx.
 * Admins set whether every intent change needs a proposal (proposals/ReviewSettings.tsx).
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
import { when } from '../lib/format';
import { graphql } from '../lib/graphql';
import { OpenProposalForm, ReviseForm, RevisionFields, reviseDenial } from './proposals/ProposalForms';
import {
  ApproveProposal,
  decideDenial,
  DenyProposal,
  diffStat,
  ProposalReview,
  ReviewFields,
} from './proposals/ProposalReview';
import { RequireProposalsSetting } from './proposals/ReviewSettings';

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
            diff
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
            ...ConsoleProposalReview
          }
        }
      }
    }
  `,
  [RevisionFields, ReviewFields],
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
const STATUSES = ['PROPOSED', 'APPROVED', 'APPLIED', 'FAILED', 'DENIED', ''] as const;

export function Proposals() {
  const me = useMe();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('PROPOSED');
  const [denyReason, setDenyReason] = useState('');
  const [revising, setRevising] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState<string | null>(null);
  const { result, refetch } = useLiveQuery({
    query: ProposalsQuery,
    variables: { status: status || null, first: 100 },
    subscription: ProposalChangedSubscription,
  });
  const [, approve] = useMutation(ApproveProposal);
  const [, deny] = useMutation(DenyProposal);
  const rows = result.data?.proposals.edges.map((e) => e.node);
  const beingRevised = rows?.find((p) => p.id === revising);
  const beingReviewed = rows?.find((p) => p.id === reviewing);
  return (
    <Page title="Proposals" error={result.error} loading={result.fetching && !result.data}>
      <div className="filters">
        <SelectField label="Status" value={status} onChange={setStatus} options={STATUSES} />
        <TextField label="Reason for denying" value={denyReason} onChange={setDenyReason} />
      </div>
      <DataTable
        caption="Proposals"
        rows={rows}
        rowKey={(p) => p.id}
        empty="No proposals with this status. Propose a change from a device's page."
        columns={[
          {
            header: 'Title',
            cell: (p) => (
              <button
                type="button"
                className="link"
                aria-label={`Review ${p.title}`}
                aria-expanded={reviewing === p.id}
                onClick={() => setReviewing(reviewing === p.id ? null : p.id)}
              >
                {p.title}
              </button>
            ),
          },
          {
            header: 'Device',
            cell: (p) => (p.device ? <Link href={`/devices/${p.device.id}`}>{p.device.name}</Link> : '—'),
          },
          {
            header: 'Reason',
            cell: (p) => <span className="truncate">{p.reason || '—'}</span>,
          },
          {
            header: 'Change',
            cell: (p) => (p.action ? <code>{p.action}</code> : (diffStat(p.diff) ?? 'device deleted')),
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
          { header: 'Revision', cell: (p) => `r${p.revision}` },
          { header: 'Decided by', cell: (p) => p.approver?.email ?? p.deniedBy?.email ?? '—', collapse: true },
          { header: 'Opened', cell: (p) => when(p.createdAt), collapse: true },
          {
            header: 'Decide',
            cell: (p) => (
              <div className="row-actions" role="group" aria-label={`Decide ${p.title}`}>
                <ActionButton
                  variant="primary"
                  run={() => approve({ id: p.id, revision: p.revision })}
                  deniedBecause={decideDenial(me, p, true)}
                >
                  Approve
                </ActionButton>
                <ActionButton
                  variant="danger"
                  run={() => deny({ id: p.id, reason: denyReason || null })}
                  deniedBecause={decideDenial(me, p, false)}
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
            ),
          },
        ]}
      />
      {beingReviewed && (
        <ProposalReview
          key={`${beingReviewed.id}:${beingReviewed.revision}`}
          proposal={beingReviewed}
          me={me}
          onClose={() => setReviewing(null)}
        />
      )}
      {beingRevised && (
        <ReviseForm
          key={`${beingRevised.id}:${beingRevised.revision}`}
          proposal={beingRevised}
          me={me}
          onClose={() => setRevising(null)}
        />
      )}
      <OpenProposalForm onDone={refetch} />
      <RequireProposalsSetting me={me} />
    </Page>
  );
}
