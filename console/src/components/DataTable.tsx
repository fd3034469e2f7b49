/**
 * A table of rows with declared columns; scrolls sideways on a narrow screen, and then says so under it
 * ("scroll sideways"), besides the shadow on the side that has more (styles.css, .table-wrap). Optional:
 * sortable column headers (a button in the header, `aria-sort` on it; the page keeps the order, e.g. in the
 * URL) and a checkbox per row with select-all (the page keeps the selection and acts on it).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Hidden on narrow screens. */
  wide?: boolean;
  /** The first to go: hidden below 1440 px too (a 1280 px screen), as well as on narrow screens. */
  collapse?: boolean;
  /** Makes the header a sort button for this key (see `sort` / `onSort`). */
  sortKey?: string;
}

export interface TableSort {
  key: string;
  direction: 'asc' | 'desc';
}

export interface TableSelection<T> {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** What a row's checkbox is called ("Select <label>"). */
  label: (row: T) => string;
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
  sort,
  onSort,
  selection,
  dense = false,
}: {
  rows: readonly T[] | undefined;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  caption: string;
  empty?: string;
  sort?: TableSort | null;
  onSort?: (next: TableSort) => void;
  selection?: TableSelection<T>;
  /** Tighter cell padding, for a table with many columns that must fit at 1280 px (the alerts list). */
  dense?: boolean;
}) {
  const { ref, overflows } = useOverflows();
  const keys = rows?.map(rowKey) ?? [];
  const allSelected = !!selection && keys.length > 0 && keys.every((k) => selection.selected.has(k));
  const toggle = (key: string, on: boolean) => {
    const next = new Set(selection!.selected);
    if (on) next.add(key);
    else next.delete(key);
    selection!.onChange(next);
  };
  return (
    <>
      <div className={dense ? 'table-wrap dense' : 'table-wrap'} ref={ref}>
        <table aria-label={caption}>
          <thead>
            <tr>
              {selection && (
                <th scope="col" className="select">
                  <input
                    type="checkbox"
                    aria-label="Select all"
                    checked={allSelected}
                    disabled={keys.length === 0}
                    onChange={(e) => selection.onChange(new Set(e.currentTarget.checked ? keys : []))}
                  />
                </th>
              )}
              {columns.map((c) => (
                <th
                  key={c.header}
                  scope="col"
                  className={classOf(c)}
                  aria-sort={c.sortKey && onSort ? ariaSort(sort, c.sortKey) : undefined}
                >
                  {c.sortKey && onSort ? (
                    <button
                      type="button"
                      className="sort"
                      onClick={() =>
                        onSort({
                          key: c.sortKey!,
                          direction: sort?.key === c.sortKey && sort?.direction === 'desc' ? 'asc' : 'desc',
                        })
                      }
                    >
                      {c.header}
                      <span aria-hidden="true">
                        {sort?.key === c.sortKey ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}
                      </span>
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows?.map((r) => (
              <tr key={rowKey(r)}>
                {selection && (
                  <td data-label="Select" className="select">
                    <input
                      type="checkbox"
                      aria-label={`Select ${selection.label(r)}`}
                      checked={selection.selected.has(rowKey(r))}
                      onChange={(e) => toggle(rowKey(r), e.currentTarget.checked)}
                    />
                  </td>
                )}
                {columns.map((c) => (
                  <td key={c.header} data-label={c.header} className={classOf(c)}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
            {rows && rows.length === 0 && (
              <tr>
                <td colSpan={columns.length + (selection ? 1 : 0)} className="empty">
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

function ariaSort(sort: TableSort | null | undefined, key: string): 'ascending' | 'descending' | 'none' {
  if (sort?.key !== key) return 'none';
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}
