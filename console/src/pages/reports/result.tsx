/**
 * A report's answer (`ReportResult`: columns in order and one JSON object per row) as a table or a
 * chart; used by the Reports page and by dashboard panels, each spreading `ConsoleReportResult`.
 */
import { DataTable } from '../../components/DataTable';
import { BarChart, LineChart, type Series } from '../../components/Chart';
import { graphql, readFragment, type FragmentOf, type ResultOf } from '../../lib/graphql';

export const ReportResultFields = graphql(`
  fragment ConsoleReportResult on ReportResult {
    entity
    columns {
      name
      type
    }
    rows
    rowCount
    truncated
  }
`);

export type ReportResultRef = FragmentOf<typeof ReportResultFields>;
type Result = ResultOf<typeof ReportResultFields>;
type ColumnType = Result['columns'][number]['type'];
/** One row: the JSON object the server sends, keyed by column name. */
export type Row = Readonly<Record<string, unknown>>;

const NUMERIC: readonly ColumnType[] = ['INTEGER', 'NUMBER'];
export const isNumeric = (type: ColumnType) => NUMERIC.includes(type);

/** The result with its rows as objects (a row that is not an object, which the server never sends, is empty). */
export function readResult(ref: ReportResultRef) {
  const r = readFragment(ReportResultFields, ref);
  const rows: Row[] = r.rows.map((x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x)) : {},
  );
  return { ...r, rows };
}

/** The chart of a result: x is `bucket` (time) or the first text column; one series per number column, or per group value with a bucket. */
export function ResultChart({
  result: ref,
  kind = 'auto',
  label,
}: {
  result: ReportResultRef;
  kind?: 'auto' | 'LINE' | 'BAR';
  label: string;
}) {
  const result = readResult(ref);
  const numeric = result.columns.filter((c) => isNumeric(c.type));
  if (!numeric.length || !result.rows.length)
    return <p className="empty">Nothing to chart: the result has no number column (add an aggregate such as count).</p>;
  const bucket = result.columns.find((c) => c.name === 'bucket');
  const category = result.columns.find((c) => c !== bucket && !isNumeric(c.type));
  const y = numeric[0].name;
  if (bucket && kind !== 'BAR') {
    let series: Series[];
    if (category) {
      const groups = new Map<string, Series>();
      for (const r of result.rows) {
        const g = String(r[category.name] ?? '—');
        if (!groups.has(g)) groups.set(g, { name: g, points: [] });
        groups.get(g)!.points.push({ x: Date.parse(String(r.bucket)), y: Number(r[y]) });
      }
      series = [...groups.values()];
    } else {
      series = numeric.map((c) => ({
        name: c.name,
        points: result.rows.map((r) => ({
          x: Date.parse(String(r.bucket)),
          y: r[c.name] === null ? null : Number(r[c.name]),
        })),
      }));
    }
    for (const s of series) s.points.sort((a, b) => a.x - b.x);
    return <LineChart label={label} series={series} />;
  }
  const labelOf = (r: Row) =>
    category ? String(r[category.name] ?? '—') : bucket ? new Date(String(r.bucket)).toLocaleString() : y;
  if (kind === 'LINE') {
    const cats = result.rows.map(labelOf);
    return (
      <LineChart
        label={label}
        time={false}
        categories={cats}
        series={[{ name: y, points: result.rows.map((r, i) => ({ x: i, y: Number(r[y]) })) }]}
      />
    );
  }
  return (
    <BarChart label={label} bars={result.rows.slice(0, 60).map((r) => ({ label: labelOf(r), value: Number(r[y]) }))} />
  );
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function ResultTable({ result: ref, caption }: { result: ReportResultRef; caption: string }) {
  const result = readResult(ref);
  return (
    <>
      <DataTable
        caption={caption}
        rows={result.rows.map((r, i) => ({ r, i }))}
        rowKey={(x) => String(x.i)}
        empty="No rows matched."
        columns={result.columns.map((c) => ({ header: c.name, cell: (x: { r: Row }) => cellText(x.r[c.name]) }))}
      />
      <p className="hint">
        {result.rowCount} row{result.rowCount === 1 ? '' : 's'}
        {result.truncated ? ' (more matched than the limit: export for all of them)' : ''}
      </p>
    </>
  );
}

/**
 * A stat panel's one figure, reduced over every row as Grafana's "Total" does: the sum of the first
 * numeric column (a grouped count sums to the total), else the number of rows.
 */
export function statOf(ref: ReportResultRef): { value: string; how: string } {
  const d = readResult(ref);
  const col = d.columns.find((c) => isNumeric(c.type));
  const more = d.truncated ? ' (at least: the result was truncated)' : '';
  if (!col) return { value: String(d.rowCount), how: `rows${more}` };
  const sum = d.rows.reduce((acc, r) => acc + (Number(r[col.name]) || 0), 0);
  return {
    value: String(Math.round(sum * 1000) / 1000),
    how: `total of ${col.name} over ${d.rows.length} rows${more}`,
  };
}
