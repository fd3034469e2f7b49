/**
 * REST routes of inhibition rules (schema/inhibit-rules.ts): members read, admins change; and an alert's
 * paging explanation ("why did or didn't it page"). Lists answer `{"items": [...]}`.
 */
import type { RouteEntry } from '../route-types.js';
import {
  INHIBIT_RULE_FIELDS,
  PAGING_EXPLANATION_FIELDS,
  presentInhibitRule,
  presentPagingExplanation,
} from '../presenters/inhibit-rules.js';

export const inhibitRulesRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/inhibit-rules',
    operation: `query InhibitRules { inhibitRules { ${INHIBIT_RULE_FIELDS} } }`,
    variables: () => ({}),
    respond: (data) => ({ items: data.inhibitRules.map(presentInhibitRule) }),
  },
  {
    method: 'post',
    path: '/inhibit-rules',
    operation: `mutation CreateInhibitRule($input: CreateInhibitRuleInput!) { createInhibitRule(input: $input) { ${INHIBIT_RULE_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentInhibitRule(data.createInhibitRule),
  },
  {
    method: 'get',
    path: '/inhibit-rules/:inhibitRuleId',
    operation: `query InhibitRule($id: ID!) { inhibitRule(id: $id) { ${INHIBIT_RULE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.inhibitRuleId }),
    respond: (data) => presentInhibitRule(data.inhibitRule),
  },
  {
    method: 'patch',
    path: '/inhibit-rules/:inhibitRuleId',
    operation: `mutation UpdateInhibitRule($id: ID!, $input: UpdateInhibitRuleInput!) { updateInhibitRule(id: $id, input: $input) { ${INHIBIT_RULE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.inhibitRuleId, input: req.body }),
    respond: (data) => presentInhibitRule(data.updateInhibitRule),
  },
  {
    method: 'delete',
    path: '/inhibit-rules/:inhibitRuleId',
    operation: 'mutation DeleteInhibitRule($id: ID!) { deleteInhibitRule(id: $id) }',
    variables: (req) => ({ id: req.params.inhibitRuleId }),
    status: 204,
  },
  {
    method: 'get',
    path: '/alerts/:alertId/paging',
    operation: `query AlertPaging($id: ID!) { alert(id: $id) { pagingExplanation { ${PAGING_EXPLANATION_FIELDS} } } }`,
    variables: (req) => ({ id: req.params.alertId }),
    respond: (data) => presentPagingExplanation(data.alert.pagingExplanation),
  },
];
