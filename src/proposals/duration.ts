/**
 * Durations as people write them in query strings: `30m`, `24h`, `7d`, `1h30m`, `2w`.
 */
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const WHOLE = /^(?:\d+[smhdw])+$/;
const PART = /(\d+)([smhdw])/g;
/** Ten years: anything longer is a typo, not a filter. */
export const MAX_DURATION_MS = 3650 * UNIT_MS.d;

/**
 * Milliseconds of a duration such as `24h`, `7d` or `1h30m` (units s, m, h, d, w); null when the text
 * is not such a duration, is zero, or exceeds ten years.
 */
export function parseDurationMs(text: string): number | null {
  const s = text.trim().toLowerCase();
  if (!WHOLE.test(s)) return null;
  let ms = 0;
  for (const [, n, unit] of s.matchAll(PART)) ms += Number(n) * UNIT_MS[unit];
  if (ms <= 0 || ms > MAX_DURATION_MS || !Number.isFinite(ms)) return null;
  return ms;
}
