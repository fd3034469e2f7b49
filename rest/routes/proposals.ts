/**
 * REST routes of the proposals area. Each executes a GraphQL operation of schema/proposals.ts.
 * docs/spec.md names `POST /sot/proposals` for opening and `/proposals…` for the rest; both are kept as given.
 */
import type { RouteEntry } from '../route-types.js';
import { PROPOSAL_FIELDS, presentProposal } from '../presenters/proposals.js';
import { itemsOf } from '../presenters/lists.js';

export const proposalsRoutes: RouteEntry[] = [
  {
    method: 'post',
    path: '/sot/proposals',
    operation: `mutation OpenProposal($input: OpenProposalInput!) { openProposal(input: $input) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentProposal(data.openProposal),
  },
  {
    method: 'get',
    path: '/proposals',
    operation: `query Proposals($first: Int!, $status: ProposalStatus, $kind: String, $deviceId: ID, $olderThan: String) {
      proposals(first: $first, status: $status, kind: $kind, deviceId: $deviceId, olderThan: $olderThan) { edges { node { ${PROPOSAL_FIELDS} } } }
    }`,
    variables: (req) => ({ ...req.query, first: Number(req.query.limit ?? 100) }),
    respond: (data) => itemsOf(data.proposals, presentProposal),
  },
  {
    method: 'get',
    path: '/proposals/:proposalId',
    operation: `query Proposal($id: ID!) { proposal(id: $id) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.proposalId }),
    respond: (data) => presentProposal(data.proposal),
  },
  {
    method: 'patch',
    path: '/proposals/:proposalId',
    operation: `mutation UpdateProposal($id: ID!, $input: UpdateProposalInput!) { updateProposal(id: $id, input: $input) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.proposalId, input: req.body }),
    respond: (data) => presentProposal(data.updateProposal),
  },
  {
    method: 'post',
    path: '/proposals/:proposalId/approve',
    operation: `mutation ApproveProposal($id: ID!, $revision: Int) { approveProposal(id: $id, revision: $revision) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.proposalId, revision: req.body?.revision ?? null }),
    respond: (data) => presentProposal(data.approveProposal),
  },
  {
    method: 'post',
    path: '/proposals/:proposalId/deny',
    operation: `mutation DenyProposal($id: ID!, $reason: String) { denyProposal(id: $id, reason: $reason) { ${PROPOSAL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.proposalId, reason: req.body?.reason ?? null }),
    respond: (data) => presentProposal(data.denyProposal),
  },
];
