/**
 * REST shapes of the assistant's resources (triage, proposed action, conversation, message, chat
 * turn): snake_case, lowercase enum values as stored, args and results left exactly as recorded.
 */
type Node = Record<string, any>;
const person = (u: Node | null | undefined) => (u ? { id: u.id, email: u.email, name: u.name ?? null } : null);

export function presentAction(a: Node): Record<string, unknown> {
  return {
    id: a.id,
    alert_id: a.alertId,
    triage_id: a.triageId,
    conversation_id: a.conversationId,
    tool: a.tool,
    args: a.args,
    args_hash: a.argsHash,
    rationale: a.rationale,
    risk: a.risk,
    status: a.status,
    proposed_at: a.proposedAt,
    expires_at: a.expiresAt,
    decided_by: person(a.decidedBy),
    decided_at: a.decidedAt,
    reason: a.reason,
    result: a.result ?? null,
  };
}

/** An evidence item: `{kind, id, label}` (kind lowercase as stored). */
function presentEvidence(e: Node): Record<string, unknown> {
  return { kind: e.kind, id: e.id, label: e.label };
}

/** GET/PUT /assistant/triage-settings. */
export function presentTriageSettings(s: Node): Record<string, unknown> {
  return {
    change_types: s.changeTypes,
    default_change_types: s.defaultChangeTypes,
    entity_keys: s.entityKeys,
    window_minutes: s.windowMinutes,
    confidence_thresholds: { high: s.highThreshold, medium: s.mediumThreshold },
  };
}

export function presentTriage(t: Node): Record<string, unknown> {
  return {
    id: t.id,
    alert_id: t.alertId,
    provider: t.provider,
    summary: t.summary,
    checks: t.checks.map((c: Node) => ({
      name: c.name,
      status: c.status,
      interesting: c.interesting,
      message: c.message,
      evidence: c.evidence.map(presentEvidence),
    })),
    likely_causes: t.likelyCauses.map((c: Node) => ({
      cause: c.cause,
      confidence: c.confidence,
      score: c.score ?? null,
      relations: c.relations.map((r: Node) => ({ kind: r.kind, detail: r.detail })),
      evidence: c.evidence.map(presentEvidence),
    })),
    actions: t.actions.map(presentAction),
    requested_by_id: t.requestedById,
    created_at: t.createdAt,
  };
}

function presentMessage(m: Node): Record<string, unknown> {
  return {
    id: m.id,
    role: m.role,
    author: person(m.author),
    content: m.content,
    citations: m.citations,
    action_ids: m.actionIds,
    provider: m.provider,
    created_at: m.createdAt,
  };
}

export function presentConversation(c: Node): Record<string, unknown> {
  return {
    id: c.id,
    kind: c.kind,
    alert_id: c.alertId,
    title: c.title,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    messages: (c.messages ?? []).map(presentMessage),
  };
}

/** GET /alerts/:id/chat: the alert's thread (empty until someone writes in it). */
export function presentAlertChat(alertId: string, c: Node | null): Record<string, unknown> {
  return { alert_id: alertId, conversation_id: c?.id ?? null, messages: (c?.messages ?? []).map(presentMessage) };
}

/** One chat turn: `{conversation_id, reply, actions, citations}` plus the stored message ids. */
export function presentChatReply(r: Node): Record<string, unknown> {
  return {
    conversation_id: r.conversation.id,
    message_id: r.message.id,
    reply_id: r.reply.id,
    reply: r.reply.content,
    citations: r.citations,
    actions: r.actions.map(presentAction),
  };
}
