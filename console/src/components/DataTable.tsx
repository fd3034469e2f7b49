/** A table of rows with declared columns; scrolls sideways on a narrow screen. */
import type { ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Hidden on narrow screens. */
  wide?: boolean;
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
  return (
    <div className="table-wrap">
      <table aria-label={caption}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.wide ? 'wide' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((r) => (
            <tr key={rowKey(r)}>
              {columns.map((c) => (
                <td key={c.header} data-label={c.header} className={c.wide ? 'wide' : undefined}>
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
  );
}
