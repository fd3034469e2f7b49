/**
 * The `builtin` provider: no model and no network. Triage turns the checks into likely causes and
 * proposed actions with templates; chat answers a fixed set of questions from live data through the
 * same read tools a model would use. Deterministic: the same data gives the same answer. Text found
 * in events is only ever quoted as data, never interpreted.
 */
import { changesMessage, isFlapping, runChecks } from '../checks.js';
import { likelyCauses } from '../causes.js';
import {
  NO_USAGE,
  type TriageFacts,
  type ActionDraft,
  type AssistantProvider,
  type LikelyCause,
  type TriageDraft,
  type TriageRequest,
} from '../types.js';
import { builtinChat } from './builtin-chat.js';

/** Actions worth proposing for the alert as it is now; a person approves each one. */
export function proposedActions(f: TriageFacts, now: Date): ActionDraft[] {
  const a = f.alert;
  const out: ActionDraft[] = [];
  if (a.status === 'resolved') return out;
  if (a.status === 'open' || a.status === 'snoozed')
    out.push({
      tool: 'acknowledge_alert',
      args: { alert_id: a.id },
      rationale: 'Take the alert so others know someone is on it.',
      risk: 'low',
    });
  out.push({
    tool: 'snooze_alert',
    args: { alert_id: a.id, duration: '1h' },
    rationale: 'Quiet it for an hour while the likely cause is checked.',
    risk: 'low',
  });
  const drifting = !!(f.device && f.latestDrift && !f.latestDrift.inSync);
  if (f.device && drifting) {
    out.push({
      tool: 'reconcile_device',
      args: { device_id: f.device.id },
      rationale: `Compare ${f.device.name} with its intent again to confirm the drift.`,
      risk: 'low',
    });
  }
  const deviceChanged = f.related.some((c) => c.isChange && c.relations.some((r) => r.kind === 'same_device'));
  if (f.device && (deviceChanged || drifting)) {
    const [latest, previous] = f.intents;
    const recentIntent =
      latest && previous && latest.createdAt.getTime() >= a.firstSeenAt.getTime() - f.windowMinutes * 60_000;
    out.push(
      recentIntent
        ? {
            tool: 'open_proposal',
            args: {
              device_id: f.device.id,
              title: `Roll back ${f.device.name} to intent version ${previous.version}`,
              kind: 'config_rollback',
              proposed_intent: previous.config,
              reason: `Intent version ${latest.version} changed shortly before alert ${a.id}.`,
            },
            rationale: `The intent of ${f.device.name} changed shortly before the alert; a rollback proposal lets a second person review restoring version ${previous.version}.`,
            risk: 'high',
          }
        : {
            tool: 'open_proposal',
            args: {
              device_id: f.device.id,
              title: `Reconcile ${f.device.name} after alert ${a.id}`,
              kind: 'assistant_remediation',
              action: 'reconcile',
              reason: `Proposed by the assistant's triage of alert ${a.id}.`,
            },
            rationale: `A change reached ${f.device.name} shortly before the alert; a proposal puts bringing it back to its intent in front of a second person.`,
            risk: 'medium',
          },
    );
  }
  if (a.source && isFlapping(f)) {
    out.push({
      tool: 'create_maintenance_window',
      args: { name: `Quiet ${a.source} while it flaps`.slice(0, 200), duration: '2h', source: a.source },
      rationale: 'The source keeps alerting; a window stops the noise while it is fixed.',
      risk: 'medium',
    });
  }
  if (a.lastSeenAt.getTime() < now.getTime() - 60 * 60_000) {
    out.push({
      tool: 'resolve_alert',
      args: { alert_id: a.id },
      rationale: 'No matching event for over an hour: the condition looks cleared.',
      risk: 'medium',
    });
  }
  return out;
}

function triageSummary(f: TriageFacts, checks: ReturnType<typeof runChecks>, causes: LikelyCause[]): string {
  const a = f.alert;
  const found = checks.filter((c) => c.interesting).length;
  return (
    `${a.severity} alert (${a.status}, ${a.count} event(s)${a.source ? ` from ${a.source}` : ''}): ${found} of ${checks.length} checks found something. ` +
    (causes[0]
      ? `Most likely (${causes[0].confidence}): ${causes[0].cause}.`
      : `${changesMessage(f)} No cause is claimed.`)
  );
}

export const builtinProvider: AssistantProvider = {
  name: 'builtin',
  usesModel: false,
  async triage(req: TriageRequest): Promise<TriageDraft> {
    const causes = likelyCauses(req.facts);
    return {
      summary: triageSummary(req.facts, req.checks, causes),
      likelyCauses: causes,
      actions: proposedActions(req.facts, req.ctx.rt.clock.now()),
      usage: NO_USAGE,
    };
  },
  chat: builtinChat,
  async complete() {
    return null;
  },
};
