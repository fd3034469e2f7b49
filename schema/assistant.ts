/**
 * GraphQL of the assistant: triage results and proposed actions (also on `Alert`), the alert's shared
 * conversation, the caller's copilot conversations, the turns (mutations, and the `assistantChat`
 * subscription that streams the reply), and approve/reject of proposed actions.
 */
import { builder, found, NodeRef, upperCaseValues } from './builder.js';
import { requireUser } from '../src/context.js';
import { triageAlert } from '../src/assistant/triage.js';
import { approveAction, rejectAction } from '../src/assistant/actions.js';
import {
  alertConversation,
  copilotChat,
  copilotHistory,
  MAX_HISTORY_CONVERSATIONS,
  sendAlertChat,
  type ChatResult,
} from '../src/assistant/chat.js';
import {
  EVIDENCE_KINDS,
  RELATION_KINDS,
  type EvidenceItem,
  type LikelyCause,
  type TriageCheck,
} from '../src/assistant/types.js';
import { assertMayReadConversation } from '../src/assistant/policy.js';
import {
  setChangeTypes,
  loadVocabulary,
  DEFAULT_CHANGE_TERMS,
  type ChangeVocabulary,
} from '../src/assistant/vocabulary.js';
import { ENTITY_KEYS } from '../src/assistant/entities.js';
import { CONFIDENCE_THRESHOLDS } from '../src/assistant/relatedness.js';
import { CANDIDATE_WINDOW_MINUTES } from '../src/assistant/candidates.js';

const ActionStatusEnum = builder.enumType('AssistantActionStatus', {
  description:
    'proposed → executed | failed (approved, then run) | rejected | expired (past its time, or the alert changed).',
  values: upperCaseValues(['proposed', 'approved', 'rejected', 'expired', 'executed', 'failed'] as const),
});
const ActionToolEnum = builder.enumType('AssistantActionTool', {
  values: upperCaseValues([
    'acknowledge_alert',
    'snooze_alert',
    'resolve_alert',
    'reconcile_device',
    'open_proposal',
    'create_maintenance_window',
  ] as const),
});
const RiskEnum = builder.enumType('AssistantRisk', { values: upperCaseValues(['low', 'medium', 'high'] as const) });
const CheckStatusEnum = builder.enumType('TriageCheckStatus', {
  values: upperCaseValues(['success', 'skipped', 'error'] as const),
});
const ConfidenceEnum = builder.enumType('CauseConfidence', {
  values: upperCaseValues(['high', 'medium', 'low'] as const),
});
const ConversationKindEnum = builder.enumType('AssistantConversationKind', {
  values: upperCaseValues(['alert', 'copilot'] as const),
});
const MessageRoleEnum = builder.enumType('AssistantMessageRole', {
  values: upperCaseValues(['user', 'assistant'] as const),
});

const EvidenceKindEnum = builder.enumType('EvidenceKind', {
  description: 'What an evidence item names (RECORD: a triage stored before items had kinds).',
  values: upperCaseValues(EVIDENCE_KINDS),
});
const RelationKindEnum = builder.enumType('CauseRelationKind', {
  description: 'How a cause is tied to the alert (docs/triage.md).',
  values: upperCaseValues(RELATION_KINDS),
});

const EvidenceItemRef = builder.objectRef<EvidenceItem>('EvidenceItem').implement({
  description: 'A record a check or cause rests on: open it by kind and id (full id, never shortened).',
  fields: (t) => ({
    kind: t.field({ type: EvidenceKindEnum, resolve: (e) => e.kind }),
    id: t.exposeString('id'),
    label: t.exposeString('label', { description: 'What the record is, for people.' }),
  }),
});

/** Stored evidence: items, or bare ids in triages stored before items had kinds. */
const evidenceItems = (list: unknown): EvidenceItem[] =>
  (Array.isArray(list) ? list : []).map((e) =>
    typeof e === 'string' ? { kind: 'record' as const, id: e, label: e } : (e as EvidenceItem),
  );

const TriageCheckRef = builder.objectRef<TriageCheck>('TriageCheck').implement({
  description: 'One deterministic check: did it run, did it find something worth a look, and the records it found.',
  fields: (t) => ({
    name: t.exposeString('name'),
    status: t.field({ type: CheckStatusEnum, resolve: (c) => c.status }),
    interesting: t.exposeBoolean('interesting'),
    message: t.exposeString('message'),
    evidence: t.field({
      type: [EvidenceItemRef],
      description: 'Events, alerts, devices, drift reports or proposals.',
      resolve: (c) => evidenceItems(c.evidence),
    }),
  }),
});

const CauseRelationRef = builder.objectRef<LikelyCause['relations'][number]>('CauseRelation').implement({
  fields: (t) => ({
    kind: t.field({ type: RelationKindEnum, resolve: (r) => r.kind }),
    detail: t.exposeString('detail', { description: 'Spelled out: "same service=checkout label".' }),
  }),
});

const LikelyCauseRef = builder.objectRef<LikelyCause>('LikelyCause').implement({
  fields: (t) => ({
    cause: t.exposeString('cause', {
      description:
        'What happened and the relation that earned it ("deploy.finished from ci (same service=checkout label, 2 min before)").',
    }),
    confidence: t.field({
      type: ConfidenceEnum,
      description: `From the score: HIGH ≥ ${CONFIDENCE_THRESHOLDS.high}, MEDIUM ≥ ${CONFIDENCE_THRESHOLDS.medium}, LOW below. Unrelated changes are never causes.`,
      resolve: (c) => c.confidence,
    }),
    score: t.int({
      nullable: true,
      description: 'Relatedness 0–100 (null when no ranked candidate backs the cause).',
      resolve: (c) => c.score ?? null,
    }),
    relations: t.field({ type: [CauseRelationRef], resolve: (c) => c.relations ?? [] }),
    evidence: t.field({
      type: [EvidenceItemRef],
      description: 'The records this rests on (all exist).',
      resolve: (c) => evidenceItems(c.evidence),
    }),
  }),
});

const TriageSettingsRef = builder.objectRef<ChangeVocabulary>('TriageSettings').implement({
  description:
    "What triage counts as a change (the documented defaults plus the tenant's own terms) and the documented constants it ranks with.",
  fields: (t) => ({
    changeTypes: t.stringList({
      description: "The tenant's own change terms: words (canary) or globs over the whole event type (*.toggled).",
      resolve: (v) => [...v.custom],
    }),
    defaultChangeTypes: t.stringList({ resolve: () => [...DEFAULT_CHANGE_TERMS] }),
    entityKeys: t.stringList({
      description: "Label and payload keys compared between an alert and a candidate (plus the rule's dedup labels).",
      resolve: () => [...ENTITY_KEYS],
    }),
    windowMinutes: t.int({ resolve: () => CANDIDATE_WINDOW_MINUTES }),
    highThreshold: t.int({ resolve: () => CONFIDENCE_THRESHOLDS.high }),
    mediumThreshold: t.int({ resolve: () => CONFIDENCE_THRESHOLDS.medium }),
  }),
});

const AssistantActionRef = builder.prismaObject('AssistantAction', {
  interfaces: [NodeRef],
  description: 'A change the assistant proposed. It runs only when a person approves it, with exactly these args.',
  fields: (t) => ({
    id: t.exposeID('id'),
    alertId: t.exposeString('alertId'),
    triageId: t.exposeString('triageId', { nullable: true }),
    conversationId: t.exposeString('conversationId', { nullable: true }),
    tool: t.field({ type: ActionToolEnum, resolve: (a) => a.tool as never }),
    args: t.expose('args', { type: 'JSON' }),
    argsHash: t.exposeString('argsHash', {
      description: 'sha256 of the canonical args; approval may pass it back to prove what was reviewed.',
    }),
    rationale: t.exposeString('rationale'),
    risk: t.field({ type: RiskEnum, resolve: (a) => a.risk as never }),
    status: t.expose('status', { type: ActionStatusEnum }),
    proposedAt: t.expose('proposedAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    decidedBy: t.relation('decidedBy', { nullable: true }),
    decidedAt: t.expose('decidedAt', { type: 'DateTime', nullable: true }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why it was rejected.' }),
    result: t.expose('result', {
      type: 'JSON',
      nullable: true,
      description: 'What running it did, its error, or why it expired.',
    }),
  }),
});

const AssistantTriageRef = builder.prismaObject('AssistantTriage', {
  description: 'One triage of an alert: checks, summary, likely causes, and the actions proposed with it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    alertId: t.exposeString('alertId'),
    provider: t.exposeString('provider', { description: 'builtin or openai.' }),
    summary: t.exposeString('summary'),
    checks: t.field({ type: [TriageCheckRef], resolve: (r) => r.checks as unknown as TriageCheck[] }),
    likelyCauses: t.field({ type: [LikelyCauseRef], resolve: (r) => r.likelyCauses as unknown as LikelyCause[] }),
    actions: t.relation('actions', { query: { orderBy: [{ proposedAt: 'asc' }, { id: 'asc' }] } }),
    requestedById: t.exposeString('requestedById', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const AssistantMessageRef = builder.prismaObject('AssistantMessage', {
  fields: (t) => ({
    id: t.exposeID('id'),
    role: t.expose('role', { type: MessageRoleEnum }),
    author: t.relation('author', { nullable: true, description: 'Who wrote it; null for the assistant.' }),
    content: t.exposeString('content'),
    citations: t.exposeStringList('citations', { description: 'Ids of the records the reply is based on.' }),
    actionIds: t.exposeStringList('actionIds', { description: 'Actions the reply proposed.' }),
    provider: t.exposeString('provider', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** Most messages a conversation returns. */
const MAX_MESSAGES = 200;

const AssistantConversationRef = builder.prismaObject('AssistantConversation', {
  description: "An alert's shared thread, or one user's copilot conversation.",
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.expose('kind', { type: ConversationKindEnum }),
    alertId: t.exposeString('alertId', { nullable: true }),
    title: t.exposeString('title'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    messages: t.relation('messages', {
      description: `Oldest first; the latest \`limit\` (default 100, at most ${MAX_MESSAGES}).`,
      args: { limit: t.arg.int({ defaultValue: 100 }) },
      resolve: async (query, conv, args, ctx) =>
        (
          await ctx.db.assistantMessage.findMany({
            ...query,
            where: { conversationId: conv.id },
            orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
            take: Math.max(1, Math.min(args.limit ?? 100, MAX_MESSAGES)),
          })
        ).reverse(),
    }),
  }),
});

builder.prismaObjectFields('Alert', (t) => ({
  triages: t.relation('assistantTriages', {
    description: 'Assistant triages of this alert, newest first (at most 20).',
    query: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 20 },
  }),
  latestTriage: t.field({
    type: AssistantTriageRef,
    nullable: true,
    resolve: (alert, _args, ctx) =>
      ctx.db.assistantTriage.findFirst({
        where: { alertId: alert.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      }),
  }),
  assistantActions: t.relation('assistantActions', {
    description: 'Actions the assistant proposed for this alert, newest first (at most 100).',
    args: { status: t.arg({ type: ActionStatusEnum }) },
    query: (args) => ({
      where: args.status ? { status: args.status } : {},
      orderBy: [{ proposedAt: 'desc' }, { id: 'desc' }],
      take: 100,
    }),
  }),
}));

export const ChatReplyRef = builder.objectRef<ChatResult>('AssistantChatReply').implement({
  description: 'One turn: the stored question and reply, what the reply cites, and the actions it proposed.',
  fields: (t) => ({
    conversation: t.field({ type: AssistantConversationRef, resolve: (r) => r.conversation }),
    message: t.field({ type: AssistantMessageRef, description: "The caller's message.", resolve: (r) => r.message }),
    reply: t.field({ type: AssistantMessageRef, resolve: (r) => r.reply }),
    citations: t.stringList({ resolve: (r) => r.reply.citations }),
    actions: t.field({ type: [AssistantActionRef], resolve: (r) => r.actions }),
  }),
});

builder.queryFields((t) => ({
  triageSettings: t.field({
    type: TriageSettingsRef,
    authScopes: { user: true },
    description: 'What triage counts as a change, and its documented ranking constants.',
    resolve: (_root, _args, ctx) => loadVocabulary(ctx),
  }),
  alertConversation: t.prismaField({
    type: 'AssistantConversation',
    nullable: true,
    authScopes: { user: true },
    description: "The alert's assistant conversation (shared by the tenant); null until someone writes in it.",
    args: { alertId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const c = await alertConversation(ctx, String(args.alertId));
      return ctx.db.assistantConversation.findFirst({
        ...query,
        where: { kind: 'alert', alertId: c?.alertId ?? String(args.alertId) },
      });
    },
  }),
  copilotConversations: t.prismaField({
    type: ['AssistantConversation'],
    authScopes: { user: true },
    description: `The caller's own copilot conversations, most recently active first (limit default 20, at most ${MAX_HISTORY_CONVERSATIONS}).`,
    args: { limit: t.arg.int({ defaultValue: 20 }) },
    resolve: async (query, _root, args, ctx) => {
      const rows = await copilotHistory(ctx, args.limit ?? 20);
      const full = await ctx.db.assistantConversation.findMany({
        ...query,
        where: { id: { in: rows.map((r) => r.id) } },
      });
      const byId = new Map(full.map((c) => [c.id, c]));
      return rows.map((r) => byId.get(r.id)!);
    },
  }),
  copilotConversation: t.prismaField({
    type: 'AssistantConversation',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const c = found(
        'Conversation',
        await ctx.db.assistantConversation.findUnique({ ...query, where: { id: String(args.id) } }),
      );
      assertMayReadConversation(requireUser(ctx), c);
      return c;
    },
  }),
}));

builder.mutationFields((t) => ({
  setTriageChangeTypes: t.field({
    type: TriageSettingsRef,
    authScopes: { admin: true },
    description: "Replaces the tenant's own change terms (added to the defaults; at most 50).",
    args: { changeTypes: t.arg.stringList({ required: true }) },
    resolve: (_root, args, ctx) => setChangeTypes(ctx, { changeTypes: args.changeTypes }),
  }),
  triageAlert: t.prismaField({
    type: 'AssistantTriage',
    authScopes: { user: true },
    description:
      'Runs a new triage of the alert (checks, summary, likely causes) and stores the actions it proposes as PROPOSED.',
    args: { alertId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const r = await triageAlert(ctx, { alertId: String(args.alertId) });
      return ctx.db.assistantTriage.findUniqueOrThrow({ ...query, where: { id: r.id } });
    },
  }),
  sendAlertChatMessage: t.field({
    type: ChatReplyRef,
    authScopes: { user: true },
    description: "One turn in the alert's shared conversation. Actions asked for are proposed, never run.",
    args: { alertId: t.arg.id({ required: true }), message: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => sendAlertChat(ctx, { alertId: String(args.alertId), message: args.message }),
  }),
  copilotChat: t.field({
    type: ChatReplyRef,
    authScopes: { user: true },
    description: "One copilot turn; without conversationId a new conversation of the caller's starts.",
    args: { message: t.arg.string({ required: true }), conversationId: t.arg.id() },
    resolve: (_root, args, ctx) =>
      copilotChat(ctx, {
        message: args.message,
        conversationId: args.conversationId == null ? null : String(args.conversationId),
      }),
  }),
  approveAssistantAction: t.prismaField({
    type: 'AssistantAction',
    authScopes: { user: true },
    description:
      "Runs the proposed action with the approver's permissions (people only: FORBIDDEN for service users). CONFLICT when already decided, expired or stale.",
    args: {
      alertId: t.arg.id({ required: true }),
      actionId: t.arg.id({ required: true }),
      argsHash: t.arg.string({ description: 'The argsHash you reviewed; CONFLICT if it differs.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const a = await approveAction(ctx, {
        alertId: String(args.alertId),
        actionId: String(args.actionId),
        argsHash: args.argsHash,
      });
      return ctx.db.assistantAction.findUniqueOrThrow({ ...query, where: { id: a.id } });
    },
  }),
  rejectAssistantAction: t.prismaField({
    type: 'AssistantAction',
    authScopes: { user: true },
    description: 'Rejects the proposed action, recording the reason.',
    args: { alertId: t.arg.id({ required: true }), actionId: t.arg.id({ required: true }), reason: t.arg.string() },
    resolve: async (query, _root, args, ctx) => {
      const a = await rejectAction(ctx, {
        alertId: String(args.alertId),
        actionId: String(args.actionId),
        reason: args.reason,
      });
      return ctx.db.assistantAction.findUniqueOrThrow({ ...query, where: { id: a.id } });
    },
  }),
}));
