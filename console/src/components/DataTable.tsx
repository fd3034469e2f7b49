/**
 * A table of rows with declared columns; scrolls sideways on a narrow screen, and then says so under it
 * ("scroll sideways"), besides the shadow on the side that has more (styles.css, .table-wrap).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Hidden on narrow screens. */
  wide?: boolean;
  /** The first to go: hidden below 1440 px too (a 1280 px screen), as well as on narrow screens. */
  collapse?: boolean;
}

const classOf = (c: { wide?: boolean; collapse?: boolean }) =>
  [c.wide || c.collapse ? 'wide' : '', c.collapse ? 'collapse' : ''].filter(Boolean).join(' ') || undefined;

/** True while the element's content is wider than its box (measured again as either changes size). */
function useOverflows() {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, []);
  return { ref, overflows };
}

export function DataTable<T>({
  rows,
  columns,
  rowKey,
  caption,
  empty = 'Nothing here yet.',
}: {
  rows: readonly T[] | undefined;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  caption: string;
  empty?: string;
}) {
  const { ref, overflows } = useOverflows();
  return (
    <>
      <div className="table-wrap" ref={ref}>
        <table aria-label={caption}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className={classOf(c)}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows?.map((r) => (
              <tr key={rowKey(r)}>
                {columns.map((c) => (
                  <td key={c.header} data-label={c.header} className={classOf(c)}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
            {rows && rows.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="empty">
                  {empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {overflows && (
        <p className="scroll-hint" aria-label={`${caption}: more columns, scroll sideways`}>
          More columns: scroll the table sideways →
        </p>
      )}
    </>
  );
}
