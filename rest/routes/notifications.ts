/**
 * REST routes of a person's paging settings and inbox, under /users/me, and an alert's notifications.
 * Each executes a GraphQL operation of schema/notifications.ts as the caller. Lists answer `{"items": [...]}`.
 */
import type { RouteEntry } from '../route-types.js';
import {
  CONTACT_METHOD_FIELDS,
  NOTIFICATION_FIELDS,
  NOTIFICATION_RULE_FIELDS,
  presentContactMethod,
  presentNotification,
  presentNotificationRule,
} from '../presenters/notifications.js';

const CM = '/users/me/contact-methods';
const RULES = '/users/me/notification-rules';

export const notificationsRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: CM,
    operation: `query ContactMethods { viewer { contactMethods { ${CONTACT_METHOD_FIELDS} } } }`,
    respond: (data) => ({ items: data.viewer.contactMethods.map(presentContactMethod) }),
  },
  {
    method: 'post',
    path: CM,
    operation: `mutation CreateContactMethod($input: ContactMethodInput!) { createContactMethod(input: $input) { secret contactMethod { ${CONTACT_METHOD_FIELDS} } } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => {
      const c = data.createContactMethod;
      return { ...presentContactMethod(c.contactMethod), ...(c.secret ? { secret: c.secret } : {}) };
    },
  },
  {
    method: 'patch',
    path: `${CM}/:contactMethodId`,
    operation: `mutation UpdateContactMethod($id: ID!, $input: UpdateContactMethodInput!) { updateContactMethod(id: $id, input: $input) { ${CONTACT_METHOD_FIELDS} } }`,
    variables: (req) => ({ id: req.params.contactMethodId, input: req.body }),
    respond: (data) => presentContactMethod(data.updateContactMethod),
  },
  {
    method: 'delete',
    path: `${CM}/:contactMethodId`,
    operation: 'mutation DeleteContactMethod($id: ID!) { deleteContactMethod(id: $id) }',
    variables: (req) => ({ id: req.params.contactMethodId }),
    status: 204,
  },
  {
    method: 'post',
    path: `${CM}/:contactMethodId/test`,
    operation: `mutation TestContactMethod($id: ID!) { testContactMethod(id: $id) { ${NOTIFICATION_FIELDS} } }`,
    variables: (req) => ({ id: req.params.contactMethodId }),
    status: 202,
    respond: (data) => presentNotification(data.testContactMethod),
  },
  {
    method: 'get',
    path: RULES,
    operation: `query NotificationRules($urgency: Urgency) { viewer { notificationRules(urgency: $urgency) { ${NOTIFICATION_RULE_FIELDS} } } }`,
    variables: (req) => ({ urgency: req.query.urgency ?? null }),
    respond: (data) => ({ items: data.viewer.notificationRules.map(presentNotificationRule) }),
  },
  {
    method: 'post',
    path: RULES,
    operation: `mutation CreateNotificationRule($input: NotificationRuleInput!) { createNotificationRule(input: $input) { ${NOTIFICATION_RULE_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentNotificationRule(data.createNotificationRule),
  },
  {
    method: 'patch',
    path: `${RULES}/:ruleId`,
    operation: `mutation UpdateNotificationRule($id: ID!, $input: UpdateNotificationRuleInput!) { updateNotificationRule(id: $id, input: $input) { ${NOTIFICATION_RULE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.ruleId, input: req.body }),
    respond: (data) => presentNotificationRule(data.updateNotificationRule),
  },
  {
    method: 'delete',
    path: `${RULES}/:ruleId`,
    operation: 'mutation DeleteNotificationRule($id: ID!) { deleteNotificationRule(id: $id) }',
    variables: (req) => ({ id: req.params.ruleId }),
    status: 204,
  },
  {
    method: 'get',
    path: '/users/me/inbox',
    operation: `query Inbox($unreadOnly: Boolean, $first: Int) { viewer { inboxUnreadCount inbox(unreadOnly: $unreadOnly, first: $first) { ${NOTIFICATION_FIELDS} } } }`,
    variables: (req) => ({ unreadOnly: req.query.unread_only ?? false, first: Number(req.query.limit ?? 50) }),
    respond: (data) => ({
      unread_count: data.viewer.inboxUnreadCount,
      items: data.viewer.inbox.map(presentNotification),
    }),
  },
  {
    method: 'post',
    path: '/users/me/inbox/read',
    operation: 'mutation MarkInboxRead($ids: [ID!]) { markInboxRead(ids: $ids) }',
    variables: (req) => ({ ids: req.body?.ids ?? null }),
    respond: (data) => ({ marked: data.markInboxRead }),
  },
  {
    method: 'get',
    path: '/alerts/:alertId/notifications',
    operation: `query AlertNotifications($id: ID!) { alert(id: $id) { notifications { ${NOTIFICATION_FIELDS} } } }`,
    variables: (req) => ({ id: req.params.alertId }),
    respond: (data) => ({ items: data.alert.notifications.map(presentNotification) }),
  },
];
