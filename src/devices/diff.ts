/**
 * Drift as a unified diff: intended configuration (---) against observed configuration (+++).
 * Line endings and trailing whitespace are normalised first, so a device that echoes the config back
 * with CRLF or padded lines is not reported as drifted.
 */
import { formatPatch, structuredPatch } from 'diff';

export interface ConfigDrift {
  inSync: boolean;
  /** Unified diff text; empty when in sync. */
  diff: string;
  linesAdded: number;
  linesRemoved: number;
}

/** The configuration as compared: LF line endings, no trailing spaces, exactly one final newline. */
export function normalizeConfig(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.length ? lines.join('\n') + '\n' : '';
}

/** Compares intent with observed config; the diff names them `intended/<label>` and `observed/<label>`. */
export function configDrift(intended: string, observed: string, label = 'config', context = 3): ConfigDrift {
  const patch = structuredPatch(
    `intended/${label}`,
    `observed/${label}`,
    normalizeConfig(intended),
    normalizeConfig(observed),
    undefined,
    undefined,
    { context },
  );
  if (patch.hunks.length === 0) return { inSync: true, diff: '', linesAdded: 0, linesRemoved: 0 };
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const h of patch.hunks) {
    for (const l of h.lines) {
      if (l.startsWith('+')) linesAdded++;
      else if (l.startsWith('-')) linesRemoved++;
    }
  }
  const text = formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
  return { inSync: false, diff: text, linesAdded, linesRemoved };
}

/**
 * What a proposal would change: a unified diff of the device's current intent (`current/<label>`)
 * against the proposed one (`proposed/<label>`), normalised like drift. Empty when they are the same.
 */
export function intentChangeDiff(current: string, proposed: string, label = 'config', context = 3): string {
  const patch = structuredPatch(
    `current/${label}`,
    `proposed/${label}`,
    normalizeConfig(current),
    normalizeConfig(proposed),
    undefined,
    undefined,
    { context },
  );
  if (patch.hunks.length === 0) return '';
  return formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
}
