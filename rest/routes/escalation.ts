/**
 * REST routes of escalation policies (CRUD; steps travel in the policy's body), the tenant's paging settings
 * (its default policy) and alert groups (list, get, their notifications, acknowledge, resolve, escalate now, snooze,
 * reassign).
 * Each executes a GraphQL operation of schema/escalation.ts as the caller. Lists answer `{"items": [...]}`.
 */
import type { RouteEntry } from '../route-types.js';
import {
  ALERT_GROUP_FIELDS,
  ESCALATION_POLICY_FIELDS,
  PAGING_SETTINGS_FIELDS,
  presentAlertGroup,
  presentEscalationPolicy,
  presentPagingSettings,
} from '../presenters/escalation.js';
import { NOTIFICATION_FIELDS, presentNotification } from '../presenters/notifications.js';
import { itemsOf } from '../presenters/lists.js';

const POLICIES = '/escalation-policies';
const GROUP = '/alert-groups/:groupId';

/** A POST on a group that takes no body: acknowledge, resolve, escalate. */
function groupAction(mutation: string, path: string): RouteEntry {
  return {
    method: 'post',
    path,
    operation: `mutation ${mutation[0]!.toUpperCase()}${mutation.slice(1)}($id: ID!) { ${mutation}(id: $id) { ${ALERT_GROUP_FIELDS} } }`,
    variables: (req) => ({ id: req.params.groupId }),
    respond: (data) => presentAlertGroup(data[mutation]),
  };
}

export const escalationRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: POLICIES,
    operation: `query EscalationPolicies { escalationPolicies { ${ESCALATION_POLICY_FIELDS} } }`,
    respond: (data) => ({ items: data.escalationPolicies.map(presentEscalationPolicy) }),
  },
  {
    method: 'post',
    path: POLICIES,
    operation: `mutation CreateEscalationPolicy($input: CreateEscalationPolicyInput!) { createEscalationPolicy(input: $input) { ${ESCALATION_POLICY_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentEscalationPolicy(data.createEscalationPolicy),
  },
  {
    method: 'get',
    path: `${POLICIES}/:policyId`,
    operation: `query EscalationPolicy($id: ID!) { escalationPolicy(id: $id) { ${ESCALATION_POLICY_FIELDS} } }`,
    variables: (req) => ({ id: req.params.policyId }),
    respond: (data) => presentEscalationPolicy(data.escalationPolicy),
  },
  {
    method: 'patch',
    path: `${POLICIES}/:policyId`,
    operation: `mutation UpdateEscalationPolicy($id: ID!, $input: UpdateEscalationPolicyInput!) { updateEscalationPolicy(id: $id, input: $input) { ${ESCALATION_POLICY_FIELDS} } }`,
    variables: (req) => ({ id: req.params.policyId, input: req.body }),
    respond: (data) => presentEscalationPolicy(data.updateEscalationPolicy),
  },
  {
    method: 'delete',
    path: `${POLICIES}/:policyId`,
    operation: 'mutation DeleteEscalationPolicy($id: ID!) { deleteEscalationPolicy(id: $id) }',
    variables: (req) => ({ id: req.params.policyId }),
    status: 204,
  },
  {
    method: 'get',
    path: '/paging-settings',
    operation: `query PagingSettings { pagingSettings { ${PAGING_SETTINGS_FIELDS} } }`,
    respond: (data) => presentPagingSettings(data.pagingSettings),
  },
  {
    method: 'patch',
    path: '/paging-settings',
    operation: `mutation UpdatePagingSettings($input: UpdatePagingSettingsInput!) { updatePagingSettings(input: $input) { ${PAGING_SETTINGS_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    respond: (data) => presentPagingSettings(data.updatePagingSettings),
  },
  {
    method: 'get',
    path: '/alert-groups',
    operation: `query AlertGroups($status: [AlertGroupStatus!], $limit: Int) { alertGroups(status: $status, limit: $limit) { ${ALERT_GROUP_FIELDS} } }`,
    variables: (req) => ({
      status: req.query.status ? String(req.query.status).split(',') : null,
      limit: req.query.limit === undefined ? null : Number(req.query.limit),
    }),
    respond: (data) => ({ items: data.alertGroups.map(presentAlertGroup) }),
  },
  {
    method: 'get',
    path: GROUP,
    operation: `query AlertGroup($id: ID!) { alertGroup(id: $id) { ${ALERT_GROUP_FIELDS} } }`,
    variables: (req) => ({ id: req.params.groupId }),
    respond: (data) => presentAlertGroup(data.alertGroup),
  },
  {
    method: 'get',
    path: `${GROUP}/notifications`,
    operation: `query AlertGroupNotifications($id: ID!, $first: Int) { alertGroup(id: $id) { notifications(first: $first) { edges { node { ${NOTIFICATION_FIELDS} } } } } }`,
    variables: (req) => ({
      id: req.params.groupId,
      first: req.query.limit === undefined ? 100 : Number(req.query.limit),
    }),
    respond: (data) => itemsOf(data.alertGroup.notifications, presentNotification),
  },
  groupAction('acknowledgeAlertGroup', `${GROUP}/acknowledge`),
  groupAction('resolveAlertGroup', `${GROUP}/resolve`),
  groupAction('escalateAlertGroup', `${GROUP}/escalate`),
  {
    method: 'post',
    path: `${GROUP}/snooze`,
    operation: `mutation SnoozeAlertGroup($id: ID!, $input: SnoozeAlertGroupInput!) { snoozeAlertGroup(id: $id, input: $input) { ${ALERT_GROUP_FIELDS} } }`,
    variables: (req) => ({
      id: req.params.groupId,
      input: {
        duration: req.body.duration === undefined || req.body.duration === null ? null : String(req.body.duration),
        until: req.body.until ?? null,
      },
    }),
    respond: (data) => presentAlertGroup(data.snoozeAlertGroup),
  },
  {
    method: 'post',
    path: `${GROUP}/reassign`,
    operation: `mutation ReassignAlertGroup($id: ID!, $userId: ID!) { reassignAlertGroup(id: $id, userId: $userId) { ${ALERT_GROUP_FIELDS} } }`,
    variables: (req) => ({ id: req.params.groupId, userId: req.body.user_id }),
    respond: (data) => presentAlertGroup(data.reassignAlertGroup),
  },
];
