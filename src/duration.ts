/**
 * Durations as people write them: "90" or 90 (seconds), "30s", "15m", "2h", "1d", "1w", combinations
 * such as "1h30m", or ISO-8601 ("PT1H", "P1DT12H", "P2W"). Used for snooze lengths and for `older_than`
 * filters. Pure.
 */

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** Seconds in the duration, or null when it cannot be read. Fractions are allowed; zero is returned as 0. */
export function parseDurationSeconds(input: string | number): number | null {
  if (typeof input === 'number') return Number.isFinite(input) ? input : null;
  const s = input.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const short =
    /^(?:(\d+(?:\.\d+)?)w)?(?:(\d+(?:\.\d+)?)d)?(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$/i.exec(
      s,
    );
  if (short && s !== '') {
    const [, w, d, h, m, sec] = short;
    return [
      w && +w * UNIT_SECONDS.w!,
      d && +d * UNIT_SECONDS.d!,
      h && +h * UNIT_SECONDS.h!,
      m && +m * UNIT_SECONDS.m!,
      sec && +sec,
    ].reduce<number>((a, b) => a + (Number(b) || 0), 0);
  }
  const iso =
    /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(
      s,
    );
  if (iso && s.length > 1 && !/T$/i.test(s)) {
    const [, w, d, h, m, sec] = iso;
    return (
      (Number(w) || 0) * 604800 +
      (Number(d) || 0) * 86400 +
      (Number(h) || 0) * 3600 +
      (Number(m) || 0) * 60 +
      (Number(sec) || 0)
    );
  }
  return null;
}

/** Ten years: anything longer is a typo, not a filter. */
export const MAX_DURATION_MS = 3650 * 86_400_000;

/**
 * Milliseconds of a duration with units (`24h`, `7d`, `1h30m`, `PT1H`) for query filters; null when the
 * text has no unit, cannot be read, is zero, or exceeds ten years.
 */
export function parseDurationMs(text: string): number | null {
  const s = text.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return null;
  const seconds = parseDurationSeconds(s);
  if (seconds === null) return null;
  const ms = seconds * 1000;
  return ms > 0 && ms <= MAX_DURATION_MS ? ms : null;
}
