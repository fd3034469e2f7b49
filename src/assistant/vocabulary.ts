/**
 * What counts as a change: a documented vocabulary of event-type terms, which a tenant may extend
 * (GraphQL `setTriageChangeTypes`, REST `PUT /assistant/triage-settings`, the console's Triage
 * settings page). A term is a word (`deploy` matches `deploy.started`, `app.deployed`,
 * `k8s.deployment_rollout`; `feature-flag` matches `feature_flag.toggled`) or a glob over the whole
 * type (`*.updated`). Known precursor types (an XID, an interface going down) are faults rather than
 * changes; triage considers both.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { invalid } from '../errors.js';
import { globMatches } from '../events/filter.js';

/** The built-in change vocabulary (docs/triage.md). */
export const DEFAULT_CHANGE_TERMS: readonly string[] = [
  'deploy',
  'release',
  'rollout',
  'rollback',
  'config',
  'flag',
  'feature-flag',
  'featureflag',
  'migration',
  'migrate',
  'upgrade',
  'downgrade',
  'scale',
  'restart',
  'intent_changed',
  'proposal_applied',
  '*.updated',
  '*.changed',
];

/**
 * Known precursors: fault types that come before a symptom rather than being one. `symptoms` says
 * which alerts they are an especially likely origin of (matched as change terms against the alert's
 * event types and rule); with any other alert they still count, once related by an entity.
 */
export const PRECURSORS: ReadonlyArray<{ terms: readonly string[]; symptoms: readonly string[]; note: string }> = [
  {
    terms: ['gpu.xid', 'gpu.ecc', 'gpu.thermal', 'gpu.missing'],
    symptoms: ['job', 'train', 'nccl', 'cuda', 'gpu', 'workload', 'batch', 'inference'],
    note: 'a GPU fault is a known precursor of job and workload failures',
  },
  {
    terms: ['interface', 'link_down', 'link-down', 'linkdown', 'port_down', 'carrier', 'bgp'],
    symptoms: [],
    note: 'an interface or link event is a known precursor of failures on the same host',
  },
  {
    terms: ['integration.degraded'],
    symptoms: [],
    note: "an integration's degradation is a known precursor of its alerts",
  },
  {
    terms: ['oom', 'disk_full', 'disk-full'],
    symptoms: [],
    note: 'resource exhaustion is a known precursor of failures on the same host',
  },
];

export const MAX_CUSTOM_TERMS = 50;
const TERM = /^[A-Za-z0-9._\-/:*]{2,100}$/;

function tokens(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[.\-_/:\s]+/)
    .filter(Boolean);
}

/** True when event type `type` is described by `term` (a word sequence, or a glob when it holds `*`). */
export function termMatches(term: string, type: string): boolean {
  const t = term.toLowerCase();
  if (t.includes('*')) return globMatches(t, type.toLowerCase());
  if (t.includes('.') && type.toLowerCase() === t) return true;
  const want = tokens(t);
  const have = tokens(type);
  if (want.length === 0) return false;
  for (let i = 0; i + want.length <= have.length; i++) {
    if (want.every((w, j) => have[i + j]!.startsWith(w))) return true;
  }
  return false;
}

/** A tenant's change vocabulary: the defaults plus its own terms. */
export interface ChangeVocabulary {
  terms: readonly string[];
  custom: readonly string[];
}

export function vocabulary(custom: readonly string[] = []): ChangeVocabulary {
  return { terms: [...DEFAULT_CHANGE_TERMS, ...custom], custom };
}

export function isChangeType(v: ChangeVocabulary, type: string): boolean {
  return v.terms.some((t) => termMatches(t, type));
}

/** The precursor entry `type` belongs to, if any. */
export function precursorOf(type: string): (typeof PRECURSORS)[number] | null {
  return PRECURSORS.find((p) => p.terms.some((t) => termMatches(t, type))) ?? null;
}

/** The tenant's change vocabulary (defaults only until someone adds terms). */
export async function loadVocabulary(ctx: Ctx): Promise<ChangeVocabulary> {
  const row = await ctx.db.triageSettings.findFirst({ select: { changeTypes: true } });
  return vocabulary(row?.changeTypes ?? []);
}

/** Replaces the tenant's own change terms (validated: 2–100 characters of letters, digits, `. _ - / : *`). */
export async function setChangeTypes(ctx: Ctx, input: { changeTypes: string[] }): Promise<ChangeVocabulary> {
  const me = requireUser(ctx);
  if (input.changeTypes.length > MAX_CUSTOM_TERMS)
    throw invalid(['changeTypes'], `must hold at most ${MAX_CUSTOM_TERMS} terms`);
  const terms: string[] = [];
  input.changeTypes.forEach((raw, i) => {
    const t = raw.trim().toLowerCase();
    if (!TERM.test(t) || /^\*+$/.test(t))
      throw invalid(
        ['changeTypes', String(i)],
        'must be 2–100 characters of letters, digits and . _ - / : *, and not only *',
      );
    if (!terms.includes(t) && !DEFAULT_CHANGE_TERMS.includes(t)) terms.push(t);
  });
  await ctx.db.triageSettings.upsert({
    where: { tenantId: me.tenantId },
    create: { tenantId: me.tenantId, changeTypes: terms },
    update: { changeTypes: terms },
  });
  return vocabulary(terms);
}
