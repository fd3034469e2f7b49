/**
 * REST routes of the assistant. The alert sub-routes (`/alerts/:id/chat`, `/triage`,
 * `/actions/:actionId/approve|reject`) live here rather than in routes/alerts.ts: they run the
 * assistant's GraphQL operations and return its presenters, so the area stays in one file and the
 * alerts table stays about alerts.
 */
import type { RouteEntry } from '../route-types.js';
import {
  presentAction,
  presentAlertChat,
  presentChatReply,
  presentConversation,
  presentTriage,
  presentTriageSettings,
} from '../presenters/assistant.js';

const PERSON = 'id email name';
const ACTION = `id alertId triageId conversationId tool args argsHash rationale risk status proposedAt expiresAt decidedAt reason result decidedBy { ${PERSON} }`;
const TRIAGE = `id alertId provider summary requestedById createdAt
  checks { name status interesting message evidence { kind id label } }
  likelyCauses { cause confidence score relations { kind detail } evidence { kind id label } }
  actions { ${ACTION} }`;
const MESSAGE = `id role content citations actionIds provider createdAt author { ${PERSON} }`;
const CONVERSATION = `id kind alertId title createdAt updatedAt messages(limit: 100) { ${MESSAGE} }`;
const TRIAGE_SETTINGS = 'changeTypes defaultChangeTypes entityKeys windowMinutes highThreshold mediumThreshold';
const REPLY = `conversation { id } message { id } reply { ${MESSAGE} } citations actions { ${ACTION} }`;

export const assistantRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/assistant/triage-settings',
    operation: `query TriageSettings { triageSettings { ${TRIAGE_SETTINGS} } }`,
    variables: () => ({}),
    respond: (data) => presentTriageSettings(data.triageSettings),
  },
  {
    method: 'put',
    path: '/assistant/triage-settings',
    operation: `mutation SetTriageChangeTypes($changeTypes: [String!]!) { setTriageChangeTypes(changeTypes: $changeTypes) { ${TRIAGE_SETTINGS} } }`,
    variables: (req) => ({ ...req.body }),
    respond: (data) => presentTriageSettings(data.setTriageChangeTypes),
  },
  {
    method: 'get',
    path: '/alerts/:alertId/chat',
    operation: `query AlertChat($alertId: ID!) { alertConversation(alertId: $alertId) { ${CONVERSATION} } }`,
    variables: (req) => ({ alertId: req.params.alertId }),
    respond: (data, req) => presentAlertChat(req.params.alertId!, data.alertConversation),
  },
  {
    method: 'post',
    path: '/alerts/:alertId/chat',
    operation: `mutation AlertChatSend($alertId: ID!, $message: String!) { sendAlertChatMessage(alertId: $alertId, message: $message) { ${REPLY} } }`,
    variables: (req) => ({ ...req.body, alertId: req.params.alertId }),
    respond: (data) => presentChatReply(data.sendAlertChatMessage),
  },
  {
    method: 'post',
    path: '/alerts/:alertId/triage',
    operation: `mutation TriageAlert($alertId: ID!) { triageAlert(alertId: $alertId) { ${TRIAGE} } }`,
    variables: (req) => ({ alertId: req.params.alertId }),
    status: 201,
    respond: (data) => presentTriage(data.triageAlert),
  },
  {
    method: 'post',
    path: '/alerts/:alertId/actions/:actionId/approve',
    operation: `mutation ApproveAssistantAction($alertId: ID!, $actionId: ID!, $argsHash: String) { approveAssistantAction(alertId: $alertId, actionId: $actionId, argsHash: $argsHash) { ${ACTION} } }`,
    variables: (req) => ({ ...req.body, alertId: req.params.alertId, actionId: req.params.actionId }),
    respond: (data) => presentAction(data.approveAssistantAction),
  },
  {
    method: 'post',
    path: '/alerts/:alertId/actions/:actionId/reject',
    operation: `mutation RejectAssistantAction($alertId: ID!, $actionId: ID!, $reason: String) { rejectAssistantAction(alertId: $alertId, actionId: $actionId, reason: $reason) { ${ACTION} } }`,
    variables: (req) => ({ ...req.body, alertId: req.params.alertId, actionId: req.params.actionId }),
    respond: (data) => presentAction(data.rejectAssistantAction),
  },
  {
    method: 'post',
    path: '/copilot/chat',
    operation: `mutation CopilotChat($message: String!, $conversationId: ID) { copilotChat(message: $message, conversationId: $conversationId) { ${REPLY} } }`,
    variables: (req) => ({ ...req.body }),
    respond: (data) => presentChatReply(data.copilotChat),
  },
  {
    method: 'get',
    path: '/copilot/history',
    operation: `query CopilotHistory($limit: Int) { copilotConversations(limit: $limit) { ${CONVERSATION} } }`,
    variables: (req) => ({ limit: req.query.limit === undefined ? 20 : Number(req.query.limit) }),
    respond: (data) => ({ items: data.copilotConversations.map(presentConversation) }),
  },
];
