/**
 * What each proposable action takes, checked when it is proposed, and the canonical hash of its args
 * that approval checks again ("exactly the recorded args"). Pure.
 */
import crypto from 'node:crypto';
import { ValidationFailed, type FieldProblem } from '../errors.js';
import { parseDurationSeconds } from '../duration.js';
import { PROPOSAL_KIND } from '../proposals/validation.js';
import { ACTION_TOOLS, type ActionDraft, type ActionTool, type Risk } from './types.js';

/** Longest snooze or maintenance window the assistant may propose: one week. */
export const MAX_ACTION_DURATION_SECONDS = 7 * 86_400;
const DEFAULT_RISK: Record<ActionTool, Risk> = {
  acknowledge_alert: 'low',
  snooze_alert: 'low',
  resolve_alert: 'medium',
  reconcile_device: 'low',
  open_proposal: 'medium',
  create_maintenance_window: 'medium',
};

/** JSON with keys sorted at every level: the same args always hash the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** sha256 hex of the action's tool and canonical args. */
export function argsHash(tool: string, args: Record<string, unknown>): string {
  return crypto
    .createHash('sha256')
    .update(`${tool}\n${canonicalJson(args)}`)
    .digest('hex');
}

function text(
  problems: FieldProblem[],
  args: Record<string, unknown>,
  name: string,
  max: number,
  required: boolean,
): string | undefined {
  const v = args[name];
  if (v === undefined || v === null || v === '') {
    if (required) problems.push({ loc: ['args', name], msg: 'is required' });
    return undefined;
  }
  if (typeof v !== 'string' || v.trim() === '' || v.length > max) {
    problems.push({ loc: ['args', name], msg: `must be a non-empty string of at most ${max} characters` });
    return undefined;
  }
  return v.trim();
}

function duration(problems: FieldProblem[], args: Record<string, unknown>): string | undefined {
  const raw = args.duration;
  const seconds = typeof raw === 'string' || typeof raw === 'number' ? parseDurationSeconds(raw) : null;
  if (seconds === null || seconds <= 0 || seconds > MAX_ACTION_DURATION_SECONDS) {
    problems.push({
      loc: ['args', 'duration'],
      msg: `must be a duration such as "1h" from 1 second to ${MAX_ACTION_DURATION_SECONDS / 86_400} days`,
    });
    return undefined;
  }
  return String(raw);
}

/** The normalized args of `tool` for the alert `alertId`; problems are pushed, never thrown here. */
function normalizeArgs(
  tool: ActionTool,
  args: Record<string, unknown>,
  alertId: string,
  problems: FieldProblem[],
): Record<string, unknown> {
  switch (tool) {
    case 'acknowledge_alert':
    case 'resolve_alert':
      return { alert_id: alertId };
    case 'snooze_alert':
      return { alert_id: alertId, duration: duration(problems, args) };
    case 'reconcile_device':
      return { device_id: text(problems, args, 'device_id', 100, true) };
    case 'open_proposal': {
      const out: Record<string, unknown> = {
        device_id: text(problems, args, 'device_id', 100, true),
        title: text(problems, args, 'title', 200, true),
        kind: text(problems, args, 'kind', 64, true),
      };
      if (typeof out.kind === 'string' && !PROPOSAL_KIND.test(out.kind))
        problems.push({ loc: ['args', 'kind'], msg: 'must be a lowercase identifier such as config_change' });
      const action = text(problems, args, 'action', 200, false);
      const intent = args.proposed_intent;
      if ((action === undefined) === (intent === undefined || intent === null))
        problems.push({ loc: ['args', 'action'], msg: 'give exactly one of action or proposed_intent' });
      if (intent != null && (typeof intent !== 'string' || intent.length > 512 * 1024))
        problems.push({ loc: ['args', 'proposed_intent'], msg: 'must be a string of at most 512 KiB' });
      if (action !== undefined) out.action = action;
      if (typeof intent === 'string') out.proposed_intent = intent;
      const reason = text(problems, args, 'reason', 5000, false);
      if (reason !== undefined) out.reason = reason;
      return out;
    }
    case 'create_maintenance_window': {
      const out: Record<string, unknown> = {
        name: text(problems, args, 'name', 200, true),
        duration: duration(problems, args),
      };
      const source = text(problems, args, 'source', 200, false);
      const deviceId = text(problems, args, 'device_id', 100, false);
      if (source === undefined && deviceId === undefined)
        problems.push({ loc: ['args', 'source'], msg: 'give a source or a device_id: a window must be scoped' });
      if (source !== undefined) out.source = source;
      if (deviceId !== undefined) out.device_id = deviceId;
      return out;
    }
  }
}

/**
 * Validates a proposed action (from a template or a model) for the alert `alertId`; throws a 422
 * listing every problem. Alert-bound tools always act on `alertId`, whatever the args said.
 */
export function parseActionDraft(
  raw: { tool: unknown; args: unknown; rationale: unknown; risk?: unknown },
  alertId: string,
): ActionDraft {
  const problems: FieldProblem[] = [];
  if (typeof raw.tool !== 'string' || !(ACTION_TOOLS as readonly string[]).includes(raw.tool)) {
    throw new ValidationFailed([{ loc: ['tool'], msg: `must be one of ${ACTION_TOOLS.join(', ')}` }]);
  }
  const tool = raw.tool as ActionTool;
  const args =
    raw.args && typeof raw.args === 'object' && !Array.isArray(raw.args) ? (raw.args as Record<string, unknown>) : {};
  const normalized = normalizeArgs(tool, args, alertId, problems);
  const rationale = typeof raw.rationale === 'string' ? raw.rationale.trim().slice(0, 2000) : '';
  if (!rationale) problems.push({ loc: ['rationale'], msg: 'is required: say why' });
  const risk = raw.risk === undefined || raw.risk === null ? DEFAULT_RISK[tool] : raw.risk;
  if (!['low', 'medium', 'high'].includes(risk as string))
    problems.push({ loc: ['risk'], msg: 'must be low, medium or high' });
  if (problems.length) throw new ValidationFailed(problems);
  return { tool, args: normalized, rationale, risk: risk as Risk, alertId };
}
