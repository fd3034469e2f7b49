/**
 * Small charts in plain SVG (no chart library, no external assets): a line chart of one or more
 * series over time or over categories, and a bar chart of labelled values. They scale to their
 * container's width (viewBox), so they work on a narrow screen too. Each chart is an `img` with an
 * accessible name and a one-line text description of its extent, and a legend when it has series.
 */
import type { ReactNode } from 'react';

export interface SeriesPoint {
  /** A time (ms since the epoch) or a category index. */
  x: number;
  y: number | null;
}
export interface Series {
  name: string;
  points: SeriesPoint[];
}

const COLORS = ['#1f5fbf', '#b3261e', '#1e7b34', '#8a5a00', '#6b3fa0', '#00798c', '#c2185b', '#5b6570'];
const W = 800;
const H = 240;
const PAD = { l: 64, r: 12, t: 10, b: 28 };

function niceNumber(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return (v / 1e6).toFixed(1) + 'M';
  if (a >= 1e4) return (v / 1e3).toFixed(0) + 'k';
  if (a >= 100) return v.toFixed(0);
  if (a >= 1) return v.toFixed(1);
  return v === 0 ? '0' : String(Number(v.toPrecision(2)));
}

function extent(values: number[]): [number, number] {
  if (!values.length) return [0, 1];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo > 0) lo = 0;
  if (hi === lo) hi = lo + 1;
  return [lo, hi];
}

function Frame({
  label,
  description,
  children,
  legend,
}: {
  label: string;
  description: string;
  children: ReactNode;
  legend?: Series[];
}) {
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        <title>{label}</title>
        {children}
      </svg>
      <figcaption>
        {legend && legend.length > 1 && (
          <span className="legend">
            {legend.map((s, i) => (
              <span key={s.name}>
                <i style={{ background: COLORS[i % COLORS.length] }} /> {s.name}
              </span>
            ))}
          </span>
        )}
        <small>{description}</small>
      </figcaption>
    </figure>
  );
}

function YAxis({ lo, hi }: { lo: number; hi: number }) {
  const ticks = [0, 0.5, 1].map((f) => lo + (hi - lo) * f);
  const y = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - (v - lo) / (hi - lo));
  return (
    <g className="axis">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PAD.l} x2={W - PAD.r} y1={y(t)} y2={y(t)} stroke="#e3e7ec" />
          <text x={PAD.l - 6} y={y(t) + 4} textAnchor="end" fontSize="11" fill="#5b6570">
            {niceNumber(t)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Lines over x (times when `time` is set, else category indexes labelled by `categories`). */
export function LineChart({
  label,
  series,
  time = true,
  categories,
  unit = '',
}: {
  label: string;
  series: Series[];
  time?: boolean;
  categories?: string[];
  unit?: string;
}) {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.flatMap((p) => (p.y === null ? [] : [p.y])));
  if (!ys.length) return <p className="empty">{label}: no data in this window.</p>;
  const [x0, x1] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
  const [lo, hi] = extent(ys);
  const x = (v: number) => PAD.l + (W - PAD.l - PAD.r) * (x1 === x0 ? 0.5 : (v - x0) / (x1 - x0));
  const y = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - (v - lo) / (hi - lo));
  const xLabel = (v: number) =>
    time
      ? new Date(v).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
      : (categories?.[v] ?? String(v));
  return (
    <Frame
      label={label}
      legend={series}
      description={`${series.length} series, ${xLabel(x0)} to ${xLabel(x1)}, ${niceNumber(Math.min(...ys))}–${niceNumber(Math.max(...ys))}${unit}`}
    >
      <YAxis lo={lo} hi={hi} />
      {series.map((s, i) => {
        // A gap (null) breaks the line.
        const segments: string[] = [];
        let cur = '';
        for (const p of s.points) {
          if (p.y === null) {
            if (cur) segments.push(cur);
            cur = '';
            continue;
          }
          cur += `${cur ? 'L' : 'M'}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`;
        }
        if (cur) segments.push(cur);
        const single = s.points.filter((p) => p.y !== null).length === 1;
        return (
          <g
            key={s.name}
            stroke={COLORS[i % COLORS.length]}
            fill="none"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
          >
            {segments.map((d, j) => (
              <path key={j} d={d} vectorEffect="non-scaling-stroke" />
            ))}
            {single &&
              s.points
                .filter((p) => p.y !== null)
                .map((p) => <circle key={p.x} cx={x(p.x)} cy={y(p.y!)} r={3} fill={COLORS[i % COLORS.length]} />)}
          </g>
        );
      })}
      <text x={PAD.l} y={H - 8} fontSize="11" fill="#5b6570">
        {xLabel(x0)}
      </text>
      <text x={W - PAD.r} y={H - 8} fontSize="11" fill="#5b6570" textAnchor="end">
        {xLabel(x1)}
      </text>
    </Frame>
  );
}

/** Vertical bars, one per labelled value (optionally stacked parts per bar). */
export function BarChart({
  label,
  bars,
  unit = '',
}: {
  label: string;
  bars: { label: string; value: number }[];
  unit?: string;
}) {
  if (!bars.length) return <p className="empty">{label}: nothing to chart.</p>;
  const [lo, hi] = extent(bars.map((b) => b.value));
  const inner = W - PAD.l - PAD.r;
  const bw = inner / bars.length;
  const y = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - (v - lo) / (hi - lo));
  const every = Math.ceil(bars.length / 12);
  return (
    <Frame
      label={label}
      description={`${bars.length} bars, ${niceNumber(Math.min(...bars.map((b) => b.value)))}–${niceNumber(Math.max(...bars.map((b) => b.value)))}${unit}`}
    >
      <YAxis lo={lo} hi={hi} />
      {bars.map((b, i) => (
        <g key={i}>
          <rect
            x={PAD.l + i * bw + bw * 0.1}
            width={Math.max(1, bw * 0.8)}
            y={Math.min(y(b.value), y(0))}
            height={Math.abs(y(0) - y(b.value))}
            fill={COLORS[0]}
          >
            <title>{`${b.label}: ${b.value}${unit}`}</title>
          </rect>
          {i % every === 0 && (
            <text x={PAD.l + i * bw + bw / 2} y={H - 8} fontSize="10" fill="#5b6570" textAnchor="middle">
              {b.label.length > 12 ? b.label.slice(0, 11) + '…' : b.label}
            </text>
          )}
        </g>
      ))}
    </Frame>
  );
}
