/**
 * Alert rules: tenant data, validated here and written through the tenant-scoped client.
 * Match rules open/bump alerts per event; absence rules (heartbeats) open one when a source that has
 * been seen goes quiet for `windowSeconds`.
 */
import type { Ctx } from '../context.js';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { AlertRule, Prisma } from '../generated/prisma/client.js';
import { PAYLOAD_OPS, templateProblems, type PayloadCondition, type Severity } from '../events/match.js';
import { escalationPolicyRefProblem } from '../escalation/policy-ref.js';

const POLICY_LOC = ['input', 'escalationPolicyId'];

export type AlertRuleKind = 'match' | 'absence';
const SEVERITIES: Severity[] = ['info', 'warning', 'critical'];
/** Longest absence window: 30 days. */
const MAX_WINDOW_SECONDS = 30 * 24 * 3600;

export interface AlertRuleInput {
  name?: string | null;
  kind?: AlertRuleKind | null;
  enabled?: boolean | null;
  typeGlob?: string | null;
  severities?: Severity[] | null;
  module?: string | null;
  source?: string | null;
  labels?: unknown;
  payloadConditions?: Array<{ path?: string | null; op?: string | null; value?: unknown }> | null;
  windowSeconds?: number | null;
  alertSeverity?: Severity | null;
  summaryTemplate?: string | null;
  dedupKeyTemplate?: string | null;
  summaryFollowsLatest?: boolean | null;
  resolveTypeGlob?: string | null;
  resolveConditions?: Array<{ path?: string | null; op?: string | null; value?: unknown }> | null;
  autoResolveAfterSeconds?: number | null;
  /** The policy that pages this rule's alerts (null: the tenant default). */
  escalationPolicyId?: string | null;
}

/** Longest auto-resolve delay: 30 days. */
const MAX_AUTO_RESOLVE_SECONDS = 30 * 24 * 3600;

function checkGlob(problems: FieldProblem[], field: string, glob: string | null | undefined): void {
  if (glob == null) return;
  if (glob.length === 0 || glob.length > 200)
    problems.push({ loc: ['input', field], msg: 'must be 1 to 200 characters' });
  else if (!/^[A-Za-z0-9_.:/*?-]+$/.test(glob))
    problems.push({ loc: ['input', field], msg: 'may contain letters, digits, . _ - : / and the wildcards * ** ?' });
}

function checkConditions(problems: FieldProblem[], field: string, conds: AlertRuleInput['payloadConditions']): void {
  (conds ?? []).forEach((c, i) => {
    const loc = (f: string, msg: string) => problems.push({ loc: ['input', field, String(i), f], msg });
    if (!c.path || !/^[\w-]+(\.[\w-]+)*$/.test(c.path)) loc('path', 'must be a dotted path such as "a.b"');
    if (!c.op || !(PAYLOAD_OPS as readonly string[]).includes(c.op))
      loc('op', `must be one of ${PAYLOAD_OPS.join(', ')}`);
    else if (['gt', 'gte', 'lt', 'lte'].includes(c.op) && typeof c.value !== 'number')
      loc('value', `must be a number for ${c.op}`);
    else if (c.op === 'exists' && c.value !== undefined && c.value !== null && typeof c.value !== 'boolean')
      loc('value', 'must be true, false or omitted for exists');
    else if (['eq', 'neq', 'contains'].includes(c.op) && c.value === undefined) loc('value', `is required for ${c.op}`);
  });
  if ((conds ?? []).length > 20) problems.push({ loc: ['input', field], msg: 'at most 20 conditions' });
}

function checkRule(merged: AlertRuleInput, present: (k: keyof AlertRuleInput) => boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const at = (field: string, msg: string) => problems.push({ loc: ['input', field], msg });
  const name = merged.name?.trim() ?? '';
  if (present('name') && (name.length === 0 || name.length > 200)) at('name', 'must be 1 to 200 characters');
  checkGlob(problems, 'typeGlob', merged.typeGlob);
  for (const f of ['module', 'source'] as const) {
    const v = merged[f];
    if (v != null && (v.length === 0 || v.length > 200)) at(f, 'must be 1 to 200 characters');
  }
  if (merged.severities && merged.severities.some((s) => !SEVERITIES.includes(s)))
    at('severities', 'must be info, warning or critical');
  if (merged.labels != null) {
    const l = merged.labels;
    if (typeof l !== 'object' || Array.isArray(l)) at('labels', 'must be an object of string keys to string values');
    else if (Object.values(l as object).some((v) => typeof v !== 'string')) at('labels', 'values must be strings');
  }
  checkConditions(problems, 'payloadConditions', merged.payloadConditions);
  checkGlob(problems, 'resolveTypeGlob', merged.resolveTypeGlob);
  checkConditions(problems, 'resolveConditions', merged.resolveConditions);
  if ((merged.resolveConditions ?? []).length > 0 && merged.resolveTypeGlob == null)
    at('resolveConditions', 'apply to events of resolveTypeGlob: set it too');
  const auto = merged.autoResolveAfterSeconds;
  if (auto != null && (!Number.isInteger(auto) || auto < 1 || auto > MAX_AUTO_RESOLVE_SECONDS))
    at('autoResolveAfterSeconds', `must be an integer from 1 to ${MAX_AUTO_RESOLVE_SECONDS}`);
  if (merged.kind === 'absence') {
    for (const f of ['resolveTypeGlob', 'autoResolveAfterSeconds'] as const)
      if (merged[f] != null)
        at(f, 'applies to match rules only (an absence alert resolves when its source reports again)');
  }
  if (merged.kind === 'absence') {
    const w = merged.windowSeconds;
    if (w == null) at('windowSeconds', 'is required for an absence rule');
    else if (!Number.isInteger(w) || w < 1 || w > MAX_WINDOW_SECONDS)
      at('windowSeconds', `must be an integer from 1 to ${MAX_WINDOW_SECONDS}`);
  } else if (merged.windowSeconds != null) at('windowSeconds', 'applies to absence rules only');
  for (const f of ['summaryTemplate', 'dedupKeyTemplate'] as const) {
    const tpl = merged[f];
    if (tpl == null) continue;
    if (tpl.length === 0 || tpl.length > 500) at(f, 'must be 1 to 500 characters');
    else for (const p of templateProblems(tpl)) at(f, p);
  }
  return problems;
}

function toData(input: AlertRuleInput): Prisma.AlertRuleUncheckedUpdateInput {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    if (k === 'name') data.name = (v as string).trim();
    else if (k === 'severities' || k === 'labels') data[k] = v ?? (k === 'labels' ? {} : []);
    else if (k === 'payloadConditions' || k === 'resolveConditions') {
      data[k] = ((v as PayloadCondition[] | null) ?? []).map((c) => ({
        path: c.path,
        op: c.op,
        ...(c.value === undefined || c.value === null ? {} : { value: c.value }),
      }));
    } else if (k === 'enabled' || k === 'kind' || k === 'alertSeverity' || k === 'summaryFollowsLatest') {
      if (v !== null) data[k] = v;
    } else data[k] = v;
  }
  return data as Prisma.AlertRuleUncheckedUpdateInput;
}

function ruleProblems(input: AlertRuleInput): FieldProblem[] {
  return checkRule({ kind: 'match', ...input }, (k) => k === 'name' || input[k] !== undefined);
}

/**
 * The validated create data of a rule (without tenant); problems come back together as
 * BAD_USER_INPUT/422. Tenant creation uses it for starter rules, inside its own transaction.
 */
export function ruleCreateData(
  input: AlertRuleInput,
  extra: { suggestionKey?: string } = {},
): Omit<Prisma.AlertRuleUncheckedCreateInput, 'tenantId'> {
  const merged: AlertRuleInput = { kind: 'match', ...input };
  const problems = ruleProblems(input);
  if (problems.length) throw new ValidationFailed(problems);
  return {
    ...(toData(merged) as Prisma.AlertRuleUncheckedCreateInput),
    ...(extra.suggestionKey ? { suggestionKey: extra.suggestionKey } : {}),
  };
}

/** Creates a rule after validating every field; problems come back together as BAD_USER_INPUT/422. */
export async function createAlertRule(
  ctx: Ctx,
  input: AlertRuleInput,
  extra: { suggestionKey?: string } = {},
): Promise<AlertRule> {
  const ref = await escalationPolicyRefProblem(ctx, input.escalationPolicyId, POLICY_LOC);
  if (ref) throw new ValidationFailed([...ruleProblems(input), ref]);
  return ctx.db.alertRule.create({ data: ruleCreateData(input, extra) as Prisma.AlertRuleUncheckedCreateInput });
}

/** Loads a rule of the caller's tenant or throws NotFound. */
export async function loadAlertRule(ctx: Ctx, id: string): Promise<AlertRule> {
  const rule = await ctx.db.alertRule.findUnique({ where: { id } });
  if (!rule) throw new NotFound('Alert rule');
  return rule;
}

/**
 * Applies a partial update (the kind cannot change). A new absence window re-schedules every
 * tracker of the rule from its last heartbeat, so the new window holds at once.
 */
export async function updateAlertRule(ctx: Ctx, id: string, input: AlertRuleInput): Promise<AlertRule> {
  const current = await loadAlertRule(ctx, id);
  const patch = { ...input };
  delete patch.kind;
  const merged: AlertRuleInput = {
    ...(current as unknown as AlertRuleInput),
    payloadConditions: current.payloadConditions as AlertRuleInput['payloadConditions'],
    ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
  };
  const problems = checkRule(merged, (k) => patch[k] !== undefined);
  const ref = await escalationPolicyRefProblem(ctx, patch.escalationPolicyId, POLICY_LOC);
  if (ref) problems.push(ref);
  if (input.kind && input.kind !== current.kind)
    problems.push({ loc: ['input', 'kind'], msg: 'cannot change; create a new rule instead' });
  if (problems.length) throw new ValidationFailed(problems);
  return ctx.db.$transaction(async (tx) => {
    const rule = await tx.alertRule.update({ where: { id }, data: toData(patch) });
    if (rule.kind === 'absence' && patch.windowSeconds != null && patch.windowSeconds !== current.windowSeconds) {
      await tx.$executeRaw`UPDATE "AbsenceTracker" SET "dueAt" = "lastSeenAt" + make_interval(secs => ${rule.windowSeconds}) WHERE "ruleId" = ${rule.id}`;
    }
    return rule;
  });
}

/** Deletes a rule; its alerts stay (their rule becomes null) and its absence trackers go with it. */
export async function deleteAlertRule(ctx: Ctx, id: string): Promise<AlertRule> {
  const rule = await loadAlertRule(ctx, id);
  await ctx.db.alertRule.delete({ where: { id: rule.id } });
  return rule;
}
