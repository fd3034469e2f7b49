/**
 * A rule's event labels and payload conditions as form rows, and back: what the rule form edits as
 * key/value and condition rows (or as JSON, for those who prefer it).
 */
export const PAYLOAD_OPS = ['EQ', 'NEQ', 'CONTAINS', 'GT', 'GTE', 'LT', 'LTE', 'IN', 'EXISTS'] as const;
export type PayloadOp = (typeof PAYLOAD_OPS)[number];
export interface LabelRow {
  key: string;
  value: string;
}
export interface ConditionRow {
  path: string;
  op: PayloadOp;
  value: string;
}

export function labelRowsOf(labels: unknown): LabelRow[] {
  if (!labels || typeof labels !== 'object' || Array.isArray(labels)) return [];
  return Object.entries(labels as Record<string, unknown>).map(([key, v]) => ({
    key,
    value: typeof v === 'string' ? v : JSON.stringify(v),
  }));
}

/** Rows → the labels object (rows without a key are left out). */
export function labelsOf(rows: LabelRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.key.trim()) out[r.key.trim()] = r.value;
  return out;
}

export function conditionRowsOf(conditions: readonly { path: string; op: string; value?: unknown }[]): ConditionRow[] {
  return conditions.map((c) => ({
    path: c.path,
    op: c.op as PayloadOp,
    value: c.value == null ? '' : typeof c.value === 'string' ? c.value : JSON.stringify(c.value),
  }));
}

/** A typed value: JSON when it parses (numbers, booleans, lists), else the text; `IN` also takes `a, b, c`. */
function valueOf(op: PayloadOp, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return op === 'IN'
      ? text
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : text;
  }
}

/** Rows → the conditions the rule mutations take (rows without a path are left out). */
export function conditionsOf(rows: ConditionRow[]): { path: string; op: PayloadOp; value?: unknown }[] {
  return rows
    .filter((r) => r.path.trim())
    .map((r) =>
      r.op === 'EXISTS'
        ? { path: r.path.trim(), op: r.op }
        : { path: r.path.trim(), op: r.op, value: valueOf(r.op, r.value) },
    );
}

/**
 * What a rule matches, in one line for the rules list: type, source, module, severities, label
 * conditions (`env=prod`) and payload conditions (`payload.status EQ 500`).
 */
export function ruleMatchSummary(r: {
  typeGlob: string | null;
  source: string | null;
  module: string | null;
  severities: readonly string[];
  labels: unknown;
  payloadConditions: readonly { path: string; op: string; value?: unknown }[];
}): string {
  return (
    [
      r.typeGlob && `type ${r.typeGlob}`,
      r.source && `source ${r.source}`,
      r.module && `module ${r.module}`,
      r.severities.length ? r.severities.map((s) => s.toLowerCase()).join('/') : null,
      ...labelRowsOf(r.labels).map((l) => `label ${l.key}=${l.value}`),
      ...r.payloadConditions.map(
        (c) =>
          `${c.path} ${c.op.toLowerCase()}${c.value === undefined || c.value === null ? '' : ` ${JSON.stringify(c.value)}`}`,
      ),
    ]
      .filter(Boolean)
      .join(' · ') || 'every event'
  );
}
