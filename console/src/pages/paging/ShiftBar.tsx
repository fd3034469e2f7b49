/**
 * One row of a schedule's timeline: the shifts of a layer (or the final shifts) drawn over a window, each a
 * segment labelled with who is on call and when, so a screen reader and a test read the same thing.
 */
import { when } from '../../lib/format';

export interface BarShift {
  userId: string;
  start: string;
  end: string;
  overrideId?: string | null;
  user?: { name?: string | null; email: string } | null;
}

export const personOf = (s: BarShift) => s.user?.name || s.user?.email || s.userId.slice(0, 8);

const COLORS = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#ff9da6', '#9d755d'];
function colorOf(userId: string): string {
  let h = 0;
  for (const c of userId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return COLORS[h % COLORS.length]!;
}

export function ShiftBar({
  label,
  shifts,
  from,
  to,
}: {
  label: string;
  shifts: readonly BarShift[];
  from: Date;
  to: Date;
}) {
  const span = to.getTime() - from.getTime();
  const pct = (iso: string) => Math.min(100, Math.max(0, ((Date.parse(iso) - from.getTime()) / span) * 100));
  return (
    <div className="shift-row" style={{ display: 'flex', alignItems: 'center', gap: '0.5rem', margin: '0.25rem 0' }}>
      <span style={{ width: '9rem', flex: 'none' }}>{label}</span>
      <ul
        aria-label={`${label} shifts`}
        style={{
          position: 'relative',
          flex: 1,
          height: '1.6rem',
          margin: 0,
          padding: 0,
          listStyle: 'none',
          background: '#eee',
        }}
      >
        {shifts.map((s) => (
          <li
            key={`${s.userId}-${s.start}`}
            aria-label={`${personOf(s)} from ${when(s.start)} to ${when(s.end)}${s.overrideId ? ' (override)' : ''}`}
            title={`${personOf(s)}: ${when(s.start)} – ${when(s.end)}`}
            style={{
              position: 'absolute',
              left: `${pct(s.start)}%`,
              width: `${Math.max(0.5, pct(s.end) - pct(s.start))}%`,
              top: 0,
              bottom: 0,
              overflow: 'hidden',
              whiteSpace: 'nowrap',
              fontSize: '0.75rem',
              color: '#fff',
              background: s.overrideId ? '#222' : colorOf(s.userId),
              borderRight: '1px solid #fff',
            }}
          >
            {personOf(s)}
          </li>
        ))}
      </ul>
    </div>
  );
}
