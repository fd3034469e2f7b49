/**
 * The builtin provider's chat: a fixed set of questions answered from live data, no model. In an
 * alert's conversation the answers are about that alert: "why is this firing?" names its rule, the
 * events that matched, first and last seen and the top related causes; "what changed?" lists the
 * related changes first (with the relation that ties each), then how many unrelated ones there were.
 * Text found in events is only ever quoted as data. Actions asked for are proposed, never run.
 */
import type { Ctx } from '../../context.js';
import type { Alert } from '../../generated/prisma/client.js';
import { changesMessage, gatherFacts, runChecks } from '../checks.js';
import { causeOf } from '../candidates.js';
import { agoText } from '../relatedness.js';
import { NO_USAGE, type ActionDraft, type ChatDraft, type ChatRequest, type TriageFacts } from '../types.js';
import { likelyCauses } from '../causes.js';

function lines(items: string[], empty: string): string {
  return items.length ? items.map((s) => `- ${s}`).join('\n') : empty;
}

const HELP =
  'I answer from this service’s own data (no language model is configured). Ask for example: "which alerts are critical right now?", ' +
  '"why is this firing?", "what changed?", "similar alerts?", "device drift?", "open proposals?"; in an alert’s conversation you can also ask me to ' +
  'acknowledge, snooze for 1h or resolve it: I propose the action and a person approves it.';

/** "Why is this firing?": the rule, the matching events, first/last seen and the top related causes. */
async function whyFiring(ctx: Ctx, alert: Alert, f: TriageFacts, cite: (ids: string[]) => void): Promise<string> {
  const [events, rule] = await Promise.all([
    ctx.db.alertEvent.findMany({
      where: { alertId: alert.id },
      include: { event: true },
      orderBy: [{ event: { receivedAt: 'desc' } }, { eventId: 'desc' }],
      take: 5,
    }),
    alert.ruleId
      ? ctx.db.alertRule.findUnique({
          where: { id: alert.ruleId },
          select: { id: true, name: true, kind: true, typeGlob: true, source: true },
        })
      : Promise.resolve(null),
  ]);
  cite([alert.id, ...(rule ? [rule.id] : []), ...events.map((l) => l.event.id)]);
  const ruleText = rule
    ? `Rule "${rule.name}" [${rule.id}] (${rule.kind}${rule.typeGlob ? `, type ${rule.typeGlob}` : ''}${rule.source ? `, source ${rule.source}` : ''}) matched.`
    : 'No rule of this service opened it (it came from an integration or was raised directly).';
  const causes = likelyCauses(f);
  cite(causes.flatMap((c) => c.evidence.map((e) => e.id)));
  return [
    `Alert [${alert.id}] "${alert.summary}" is ${alert.status} (${alert.severity}). ${ruleText}`,
    `First seen ${alert.firstSeenAt.toISOString()}, last seen ${alert.lastSeenAt.toISOString()}, ${alert.count} matching event(s); the latest:`,
    lines(
      events.map(
        (l) => `[${l.event.id}] ${l.event.type} from ${l.event.source} at ${l.event.receivedAt.toISOString()}`,
      ),
      '- none recorded',
    ),
    causes.length
      ? 'Top related causes:\n' +
        lines(
          causes.map((c) => `${c.cause} — ${c.confidence} [${c.evidence.map((e) => e.id).join(', ')}]`),
          '',
        )
      : `${changesMessage(f)} No cause is claimed.`,
  ].join('\n');
}

/** "What changed?": related changes first, then the count (and the newest) of unrelated ones. */
function whatChanged(f: TriageFacts, cite: (ids: string[]) => void): string {
  const related = f.related.filter((c) => c.isChange);
  cite(related.map((c) => c.event.id));
  const out = [
    `Related changes in the ${f.windowMinutes} minutes before the alert (strongest first):`,
    lines(
      related.slice(0, 10).map((c) => `[${c.event.id}] ${causeOf(c).cause} — ${c.confidence}`),
      '- no related change found',
    ),
  ];
  if (f.unrelatedChanges.length) {
    cite(f.unrelatedChanges.slice(0, 5).map((c) => c.event.id));
    out.push(
      `${f.unrelatedChanges.length} unrelated change(s) in the window (they share no device, entity, source or topology with the alert); the newest:`,
      lines(
        f.unrelatedChanges
          .slice(0, 5)
          .map((c) => `[${c.event.id}] ${c.event.type} from ${c.event.source}, ${agoText(c.minutesBefore)}`),
        '',
      ),
    );
  } else out.push('No unrelated change in the window either.');
  return out.join('\n');
}

/** Answers a chat message from live data; actions asked for are proposed, never run. */
export async function builtinChat(req: ChatRequest): Promise<ChatDraft> {
  const text = req.message.toLowerCase();
  const tb = req.toolbox;
  const alert = req.alert;
  const parts: string[] = [];
  const citations: string[] = [];
  const actions: ActionDraft[] = [];
  const cite = (ids: string[]) => citations.push(...ids.filter((id) => !citations.includes(id)));

  if (alert) {
    const snooze = /\bsnooze\b(?:\D{0,20}?(\d+\s*(?:[smhdw]\b|sec|min|minutes?|hours?|days?)))?/.exec(text);
    if (snooze) {
      const dur = (snooze[1] ?? '1h').replace(/\s+/g, '').replace(/(sec|min|minutes?|hours?|days?)$/, (u) => u[0]!);
      actions.push({
        tool: 'snooze_alert',
        args: { alert_id: alert.id, duration: dur },
        rationale: `Asked in the alert's conversation: snooze for ${dur}.`,
        risk: 'low',
      });
    }
    if (/\back(nowledge)?\b/.test(text))
      actions.push({
        tool: 'acknowledge_alert',
        args: { alert_id: alert.id },
        rationale: "Asked in the alert's conversation.",
        risk: 'low',
      });
    if (/\bresolve\b/.test(text))
      actions.push({
        tool: 'resolve_alert',
        args: { alert_id: alert.id },
        rationale: "Asked in the alert's conversation.",
        risk: 'medium',
      });
  }
  // In an alert's conversation, "alerts" means other alerts only when asked for explicitly.
  const listAlerts = alert
    ? /\b(other|all|which|list)\b[^?]*\balerts\b|\bcritical\b/.test(text)
    : /\balerts?\b|critical|firing|open\b/.test(text);
  if (listAlerts && !(alert && actions.length)) {
    const critical = /critical/.test(text);
    const r = await tb.call('list_alerts', {
      ...(critical ? { severity: 'critical' } : {}),
      status: 'live',
      limit: 20,
    });
    const rows = (r.data as Array<Record<string, string>>) ?? [];
    cite(rows.map((x) => x.id!));
    parts.push(
      `${rows.length} ${critical ? 'critical ' : ''}alert(s) not resolved right now:\n` +
        lines(
          rows.map(
            (x) =>
              `[${x.id}] ${x.summary} (${x.severity}, ${x.status}${x.source ? `, ${x.source}` : ''}, since ${x.first_seen_at})`,
          ),
          '- none',
        ),
    );
  }
  const facts =
    alert && /why|firing|cause|triage|check|drift|device|chang|deploy|release/.test(text)
      ? await gatherFacts(req.ctx, alert)
      : null;
  if (alert && facts && /why|firing|cause/.test(text)) parts.push(await whyFiring(req.ctx, alert, facts, cite));
  if (/chang|deploy|release/.test(text)) {
    if (facts) parts.push(whatChanged(facts, cite));
    else {
      const r = await tb.call('search_events', { since_hours: 24, limit: 50 });
      const rows = ((r.data as Array<Record<string, unknown>>) ?? []).filter((e) => e.is_change === true).slice(0, 10);
      cite(rows.map((x) => String(x.id)));
      parts.push(
        'Changes in the last 24 hours:\n' +
          lines(
            rows.map((e) => `[${e.id}] ${e.type} from ${e.source} at ${e.received_at}`),
            '- none recorded',
          ),
      );
    }
  }
  if (alert && /similar|before|history|again|last time/.test(text) && !/chang|deploy|why|firing/.test(text)) {
    const r = await tb.call('similar_alerts', { alert_id: alert.id, limit: 5 });
    const rows = (r.data as Array<Record<string, string>>) ?? [];
    cite(rows.map((x) => x.id!));
    parts.push(
      'Similar alerts in 30 days:\n' +
        lines(
          rows.map(
            (x) => `[${x.id}] ${x.status}${x.resolved_by ? `, resolved by ${x.resolved_by}` : ''} (${x.first_seen_at})`,
          ),
          '- none',
        ),
    );
  }
  if (alert && facts && /triage|check|drift|device/.test(text)) {
    const checks = runChecks(facts);
    for (const c of checks) cite(c.evidence.map((e) => e.id));
    parts.push(
      lines(
        checks.map((c) => `${c.name}: ${c.message}`),
        '',
      ),
    );
  }
  if (/proposal/.test(text)) {
    const r = await tb.call('list_proposals', { status: 'proposed', limit: 10 });
    const rows = (r.data as Array<Record<string, string>>) ?? [];
    cite(rows.map((x) => x.id!));
    parts.push(
      'Proposals waiting for approval:\n' +
        lines(
          rows.map((p) => `[${p.id}] ${p.title} (${p.kind})`),
          '- none',
        ),
    );
  }
  if (actions.length) {
    parts.push(
      'Proposed for a person to approve (nothing has been changed):\n' +
        lines(
          actions.map((x) => `${x.tool} ${JSON.stringify(x.args)}`),
          '',
        ),
    );
  }
  const reply = parts.length ? parts.join('\n\n') : HELP;
  for (const chunk of reply.split(/(?<=\n)/)) req.onDelta?.(chunk);
  return { reply, citations, actions, usage: NO_USAGE };
}
