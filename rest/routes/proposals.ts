/**
 * REST routes of the proposals area. Each executes a GraphQL operation of schema/proposals.ts.
 * SPEC names `POST /sot/proposals` for opening and `/proposals…` for the rest; both are kept as given.
 */
import type { RouteEntry } from '../route-types.js';
import { NotFound } from '../../src/errors.js';

const PROPOSAL_FIELDS =
  'id title kind status proposedIntent action reason revision approvedAt approvedRevision deniedAt denialReason appliedAt failureReason createdAt updatedAt device { id } proposer { id } approver { id } deniedBy { id }';

type Node = Record<string, any>;

/** REST shape of a proposal: snake_case, related users and device as ids. */
export function restProposal(p: Node): Record<string, unknown> {
  return {
    id: p.id,
    title: p.title,
    kind: p.kind,
    status: p.status,
    device_id: p.device?.id ?? null,
    proposed_intent: p.proposedIntent,
    action: p.action,
    reason: p.reason,
    revision: p.revision,
    proposer_id: p.proposer.id,
    approver_id: p.approver?.id ?? null,
    approved_at: p.approvedAt,
    approved_revision: p.approvedRevision,
    denied_by_id: p.deniedBy?.id ?? null,
    denied_at: p.deniedAt,
    denial_reason: p.denialReason,
    applied_at: p.appliedAt,
    failure_reason: p.failureReason,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

export const proposalsRoutes: RouteEntry[] = [
  {
    method: 'post',
    path: '/sot/proposals',
    operation: `mutation OpenProposal($input: OpenProposalInput!) { openProposal(input: $input) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => ({
      input: {
        title: req.body.title,
        kind: req.body.kind,
        deviceId: req.body.device_id,
        proposedIntent: req.body.proposed_intent ?? null,
        action: req.body.action ?? null,
        reason: req.body.reason ?? null,
      },
    }),
    status: 201,
    respond: (data) => restProposal(data.openProposal),
  },
  {
    method: 'get',
    path: '/proposals',
    operation: `query Proposals($first: Int!, $status: ProposalStatus, $kind: String, $deviceId: ID, $olderThan: String) {
      proposals(first: $first, status: $status, kind: $kind, deviceId: $deviceId, olderThan: $olderThan) { edges { node { ${PROPOSAL_FIELDS} } } }
    }`,
    variables: (req) => ({
      first: Number(req.query.limit ?? 100),
      status: req.query.status ?? null,
      kind: req.query.kind ?? null,
      deviceId: req.query.device_id ?? null,
      olderThan: req.query.older_than ?? null,
    }),
    respond: (data) => ({ items: data.proposals.edges.map((e: { node: Node }) => restProposal(e.node)) }),
  },
  {
    method: 'get',
    path: '/proposals/:proposalId',
    operation: `query Proposal($id: ID!) { proposal(id: $id) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.proposalId }),
    respond: (data) => {
      if (!data.proposal) throw new NotFound('Proposal');
      return restProposal(data.proposal);
    },
  },
  {
    method: 'patch',
    path: '/proposals/:proposalId',
    operation: `mutation UpdateProposal($id: ID!, $input: UpdateProposalInput!) { updateProposal(id: $id, input: $input) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => {
      const b = req.body as Record<string, unknown>;
      const input: Record<string, unknown> = {};
      for (const [rest, gql] of [['title', 'title'], ['kind', 'kind'], ['device_id', 'deviceId'], ['proposed_intent', 'proposedIntent'], ['action', 'action'], ['reason', 'reason']]) {
        if (b[rest] !== undefined) input[gql] = b[rest];
      }
      return { id: req.params.proposalId, input };
    },
    respond: (data) => restProposal(data.updateProposal),
  },
  {
    method: 'post',
    path: '/proposals/:proposalId/approve',
    operation: `mutation ApproveProposal($id: ID!, $revision: Int) { approveProposal(id: $id, revision: $revision) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.proposalId, revision: req.body?.revision ?? null }),
    respond: (data) => restProposal(data.approveProposal),
  },
  {
    method: 'post',
    path: '/proposals/:proposalId/deny',
    operation: `mutation DenyProposal($id: ID!, $reason: String) { denyProposal(id: $id, reason: $reason) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.proposalId, reason: req.body?.reason ?? null }),
    respond: (data) => restProposal(data.denyProposal),
  },
];
