/**
 * The `builtin` provider: no model and no network. Triage turns the checks into likely causes and
 * proposed actions with templates; chat answers a fixed set of questions from live data through the
 * same read tools a model would use. Deterministic: the same data gives the same answer. Text found
 * in events is only ever quoted as data, never interpreted.
 */
import { CHANGE_WINDOW_MINUTES, gatherFacts, runChecks } from '../checks.js';
import { CHANGE_TYPE } from '../tools.js';
import { NO_USAGE, type TriageFacts, type ActionDraft, type AssistantProvider, type ChatDraft, type ChatRequest, type LikelyCause, type TriageDraft, type TriageRequest } from '../types.js';

const short = (id: string) => id.slice(-8);

function minutesBefore(f: TriageFacts, at: Date): number {
  return Math.max(0, Math.round((f.alert.firstSeenAt.getTime() - at.getTime()) / 60_000));
}

/** Likely causes, strongest first, each naming its evidence. */
export function likelyCauses(f: TriageFacts): LikelyCause[] {
  const causes: LikelyCause[] = [];
  const deviceId = f.device?.id;
  for (const e of f.changes.slice(0, 3)) {
    const m = minutesBefore(f, e.receivedAt);
    const close = (f.alert.source && e.source === f.alert.source) || (deviceId && e.deviceId === deviceId) || m <= 15;
    causes.push({
      cause: `${e.type} from ${e.source} ${m} minute(s) before the alert opened`,
      confidence: close ? 'high' : 'medium',
      evidence: [e.id, ...(deviceId && e.deviceId === deviceId ? [deviceId] : [])],
    });
  }
  for (const p of f.appliedProposals.slice(0, 2)) {
    causes.push({ cause: `Proposal "${p.title.slice(0, 120)}" was applied to ${f.device!.name} shortly before the alert`, confidence: 'high', evidence: [p.id, f.device!.id] });
  }
  if (f.device && f.latestDrift && !f.latestDrift.inSync) {
    causes.push({ cause: `Device ${f.device.name} runs a configuration that differs from its intent`, confidence: 'medium', evidence: [f.device.id, f.latestDrift.id] });
  }
  const loud = f.related.filter((e) => e.severity !== 'info');
  if (loud[0]) causes.push({ cause: `${loud[0].type} from ${loud[0].source} around the same time`, confidence: 'medium', evidence: loud.slice(0, 5).map((e) => e.id) });
  if (f.sourceAlertsToday >= 3 || f.reopenCount >= 2) {
    causes.push({ cause: `Source ${f.alert.source ?? 'unknown'} is flapping (${f.sourceAlertsToday} alerts in 24 h)`, confidence: 'low', evidence: f.similar.slice(0, 5).map((s) => s.alert.id) });
  }
  if (causes.length === 0 && f.similar.length > 0) {
    causes.push({ cause: `A recurring issue: ${f.similar.length} similar alert(s) in 30 days`, confidence: 'low', evidence: f.similar.slice(0, 5).map((s) => s.alert.id) });
  }
  return causes;
}

/** Actions worth proposing for the alert as it is now; a person approves each one. */
export function proposedActions(f: TriageFacts): ActionDraft[] {
  const a = f.alert;
  const out: ActionDraft[] = [];
  if (a.status === 'resolved') return out;
  if (a.status === 'open' || a.status === 'snoozed') out.push({ tool: 'acknowledge_alert', args: { alert_id: a.id }, rationale: 'Take the alert so others know someone is on it.', risk: 'low' });
  out.push({ tool: 'snooze_alert', args: { alert_id: a.id, duration: '1h' }, rationale: 'Quiet it for an hour while the likely cause is checked.', risk: 'low' });
  const drifting = !!(f.device && f.latestDrift && !f.latestDrift.inSync);
  if (f.device && drifting) {
    out.push({ tool: 'reconcile_device', args: { device_id: f.device.id }, rationale: `Compare ${f.device.name} with its intent again to confirm the drift.`, risk: 'low' });
  }
  if (f.device && (f.changes.length > 0 || drifting || f.appliedProposals.length > 0)) {
    const [latest, previous] = f.intents;
    const recentIntent = latest && previous && latest.createdAt.getTime() >= a.firstSeenAt.getTime() - CHANGE_WINDOW_MINUTES * 60_000;
    out.push(
      recentIntent
        ? {
            tool: 'open_proposal',
            args: { device_id: f.device.id, title: `Roll back ${f.device.name} to intent version ${previous.version}`, kind: 'config_rollback', proposed_intent: previous.config, reason: `Intent version ${latest.version} changed shortly before alert ${a.id}.` },
            rationale: `The intent of ${f.device.name} changed shortly before the alert; a rollback proposal lets a second person review restoring version ${previous.version}.`,
            risk: 'high',
          }
        : {
            tool: 'open_proposal',
            args: { device_id: f.device.id, title: `Reconcile ${f.device.name} after alert ${short(a.id)}`, kind: 'assistant_remediation', action: 'reconcile', reason: `Proposed by the assistant's triage of alert ${a.id}.` },
            rationale: `A change reached ${f.device.name} shortly before the alert; a proposal puts bringing it back to its intent in front of a second person.`,
            risk: 'medium',
          },
    );
  }
  if (a.source && (f.sourceAlertsToday >= 3 || f.reopenCount >= 2)) {
    out.push({ tool: 'create_maintenance_window', args: { name: `Quiet ${a.source} while it flaps`.slice(0, 200), duration: '2h', source: a.source }, rationale: 'The source keeps alerting; a window stops the noise while it is fixed.', risk: 'medium' });
  }
  if (a.lastSeenAt.getTime() < Date.now() - 60 * 60_000) {
    out.push({ tool: 'resolve_alert', args: { alert_id: a.id }, rationale: 'No matching event for over an hour: the condition looks cleared.', risk: 'medium' });
  }
  return out;
}

function triageSummary(f: TriageFacts, checks: ReturnType<typeof runChecks>, causes: LikelyCause[]): string {
  const a = f.alert;
  const found = checks.filter((c) => c.interesting).length;
  return (
    `${a.severity} alert (${a.status}, ${a.count} event(s)${a.source ? ` from ${a.source}` : ''}): ${found} of ${checks.length} checks found something. ` +
    (causes[0] ? `Most likely: ${causes[0].cause}.` : 'No likely cause stood out; see the checks.')
  );
}

function lines(items: string[], empty: string): string {
  return items.length ? items.map((s) => `- ${s}`).join('\n') : empty;
}

const HELP =
  'I answer from this service’s own data (no language model is configured). Ask for example: "which alerts are critical right now?", ' +
  '"what changed before this alert?", "similar alerts?", "device drift?", "open proposals?"; in an alert’s conversation you can also ask me to ' +
  'acknowledge, snooze for 1h or resolve it: I propose the action and a person approves it.';

/** Answers a chat message from live data; actions asked for are proposed, never run. */
async function builtinChat(req: ChatRequest): Promise<ChatDraft> {
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
      actions.push({ tool: 'snooze_alert', args: { alert_id: alert.id, duration: dur }, rationale: `Asked in the alert's conversation: snooze for ${dur}.`, risk: 'low' });
    }
    if (/\back(nowledge)?\b/.test(text)) actions.push({ tool: 'acknowledge_alert', args: { alert_id: alert.id }, rationale: "Asked in the alert's conversation.", risk: 'low' });
    if (/\bresolve\b/.test(text)) actions.push({ tool: 'resolve_alert', args: { alert_id: alert.id }, rationale: "Asked in the alert's conversation.", risk: 'medium' });
  }

  if (/\balerts?\b|critical|firing|open\b/.test(text) && !(alert && actions.length)) {
    const critical = /critical/.test(text);
    const r = await tb.call('list_alerts', { ...(critical ? { severity: 'critical' } : {}), status: 'live', limit: 20 });
    const rows = (r.data as Array<Record<string, string>>) ?? [];
    cite(rows.map((x) => x.id));
    parts.push(
      `${rows.length} ${critical ? 'critical ' : ''}alert(s) not resolved right now:\n` +
        lines(rows.map((x) => `[${x.id}] ${x.summary} (${x.severity}, ${x.status}${x.source ? `, ${x.source}` : ''}, since ${x.first_seen_at})`), '- none'),
    );
  }
  if (/chang|deploy|release/.test(text)) {
    const r = alert ? await tb.call('recent_changes', { alert_id: alert.id, window_minutes: CHANGE_WINDOW_MINUTES }) : await tb.call('search_events', { since_hours: 24, limit: 50 });
    const rows = ((r.data as Array<Record<string, string>>) ?? []).filter((e) => CHANGE_TYPE.test(e.type!)).slice(0, 10);
    cite(rows.map((x) => x.id!));
    parts.push(
      (alert ? `Changes in the ${CHANGE_WINDOW_MINUTES} minutes before the alert:\n` : 'Changes in the last 24 hours:\n') +
        lines(rows.map((e) => `[${e.id}] ${e.type} from ${e.source} at ${e.received_at}`), '- none recorded'),
    );
  }
  if (alert && /similar|before|history|again|last time/.test(text) && !/chang|deploy/.test(text)) {
    const r = await tb.call('similar_alerts', { alert_id: alert.id, limit: 5 });
    const rows = (r.data as Array<Record<string, string>>) ?? [];
    cite(rows.map((x) => x.id));
    parts.push('Similar alerts in 30 days:\n' + lines(rows.map((x) => `[${x.id}] ${x.status}${x.resolved_by ? `, resolved by ${x.resolved_by}` : ''} (${x.first_seen_at})`), '- none'));
  }
  if (alert && /why|cause|triage|check|drift|device/.test(text)) {
    const facts = await gatherFacts(req.ctx, alert);
    const checks = runChecks(facts);
    const causes = likelyCauses(facts);
    for (const c of checks) cite(c.evidence);
    parts.push(lines(checks.map((c) => `${c.name}: ${c.message}`), '') + (causes[0] ? `\nMost likely: ${causes[0].cause}.` : ''));
  }
  if (/proposal/.test(text)) {
    const r = await tb.call('list_proposals', { status: 'proposed', limit: 10 });
    const rows = (r.data as Array<Record<string, string>>) ?? [];
    cite(rows.map((x) => x.id));
    parts.push('Proposals waiting for approval:\n' + lines(rows.map((p) => `[${p.id}] ${p.title} (${p.kind})`), '- none'));
  }
  if (actions.length) {
    parts.push('Proposed for a person to approve (nothing has been changed):\n' + lines(actions.map((x) => `${x.tool} ${JSON.stringify(x.args)}`), ''));
  }
  const reply = parts.length ? parts.join('\n\n') : HELP;
  for (const chunk of reply.split(/(?<=\n)/)) req.onDelta?.(chunk);
  return { reply, citations, actions, usage: NO_USAGE };
}

export const builtinProvider: AssistantProvider = {
  name: 'builtin',
  usesModel: false,
  async triage(req: TriageRequest): Promise<TriageDraft> {
    const causes = likelyCauses(req.facts);
    return { summary: triageSummary(req.facts, req.checks, causes), likelyCauses: causes, actions: proposedActions(req.facts), usage: NO_USAGE };
  },
  chat: builtinChat,
  async complete() {
    return null;
  },
};
