/**
 * The connection types, one per node type and shared by every field that pages it (GitHub's
 * `RepositoryConnection` on both `Query.repositories` and `User.repositories`), each with `totalCount`.
 */
import { countedConnection } from './builder.js';

export const AlertConnection = countedConnection('Alert', 'AlertConnection');
export const AuditLogConnection = countedConnection('AuditLog', 'AuditLogConnection');
export const DeviceConnection = countedConnection('Device', 'DeviceConnection');
export const DriftReportConnection = countedConnection('DriftReport', 'DriftReportConnection');
export const EventConnection = countedConnection('Event', 'EventConnection');
export const IntentVersionConnection = countedConnection('IntentVersion', 'IntentVersionConnection');
export const ProposalConnection = countedConnection('Proposal', 'ProposalConnection');
