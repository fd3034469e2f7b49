/**
 * What a maintenance window meant before windows became silences (src/routing/window-silences.ts):
 * one-off (`startsAt`..`endsAt`) or the same span repeated every `repeatEverySeconds`, covering the
 * alerts of its scope (labels, source, device; unscoped: the whole tenant). Silences decide muting now;
 * these functions are the reference the migration and the fixed-period silences keep
 * (`fixedPeriodContains`), and what test/maintenance-windows-migration.test.ts compares silences with.
 */

/** What a window's scope is compared with: the alert's source, the opening event's labels and device. */
export interface WindowSubject {
  source: string | null;
  labels: Record<string, unknown>;
  deviceId: string | null;
}

export interface WindowShape {
  startsAt: Date;
  endsAt: Date;
  repeatEverySeconds: number | null;
  matchLabels?: unknown;
  source?: string | null;
  deviceId?: string | null;
}

/** True when `at` falls inside the window (for recurring windows: inside any repetition). */
export function windowIsActive(w: WindowShape, at: Date): boolean {
  const t = at.getTime();
  const start = w.startsAt.getTime();
  const span = w.endsAt.getTime() - start;
  if (t < start) return false;
  if (!w.repeatEverySeconds) return t < w.endsAt.getTime();
  return (t - start) % (w.repeatEverySeconds * 1000) < span;
}

/** True when the window's scope covers the subject (an unscoped window covers the whole tenant). */
function windowCovers(w: WindowShape, s: WindowSubject): boolean {
  if (w.source && w.source !== s.source) return false;
  if (w.deviceId && w.deviceId !== s.deviceId) return false;
  for (const [k, v] of Object.entries((w.matchLabels ?? {}) as Record<string, unknown>))
    if (s.labels[k] !== v) return false;
  return true;
}

/** The first window active at `at` that covers the subject, if any. */
export function suppressingWindow<W extends WindowShape>(windows: W[], s: WindowSubject, at: Date): W | undefined {
  return windows.find((w) => windowIsActive(w, at) && windowCovers(w, s));
}
