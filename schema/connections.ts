/**
 * The connection types, one per node type and shared by every field that pages it (GitHub's
 * `RepositoryConnection` on both `Query.repositories` and `User.repositories`), each with `totalCount`.
 */
import { countedConnection } from './builder.js';

/**
 * The page size of every list and connection of the schema (`defaultSize`/`maxSize` of a connection,
 * the default and the bound of a `limit`); REST `limit` parameters have the same bounds.
 */
export const PAGE = { defaultSize: 100, maxSize: 500 } as const;

export const AlertConnection = countedConnection('Alert', 'AlertConnection');
export const AuditLogConnection = countedConnection('AuditLog', 'AuditLogConnection');
export const DeviceConnection = countedConnection('Device', 'DeviceConnection');
export const DriftReportConnection = countedConnection('DriftReport', 'DriftReportConnection');
export const EventConnection = countedConnection('Event', 'EventConnection');
export const NotificationConnection = countedConnection('Notification', 'NotificationConnection');
export const IntentVersionConnection = countedConnection('IntentVersion', 'IntentVersionConnection');
export const ProposalConnection = countedConnection('Proposal', 'ProposalConnection');
