// A table whose header row names its columns. Below 640 px the header row is hidden from the eye
// and each row wraps into a block, so every body cell carries its column's name as `data-label`
// and the narrow stylesheet shows that name before the cell's content.
import { useLayoutEffect, useRef, type ReactNode } from 'react';

/** `columns` are the header texts, in order ('' for a column of buttons); `children` are the rows. */
export function Table({ columns, label, children }: { columns: string[]; label?: string; children: ReactNode }) {
  const ref = useRef<HTMLTableElement>(null);
  const key = columns.join('\n');
  useLayoutEffect(() => {
    const table = ref.current;
    if (!table) return;
    labelCells(table, columns);
    // Rows come and go as data loads, some from components of their own: label each new cell too.
    const observer = new MutationObserver(() => labelCells(table, columns));
    observer.observe(table, { childList: true, subtree: true });
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return (
    <table ref={ref} aria-label={label}>
      <thead>
        <tr>
          {columns.map((name, i) => (
            <th key={i}>{name}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** Names each body cell after its column, by position; a cell spanning columns gets no name. */
function labelCells(table: HTMLTableElement, columns: string[]): void {
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      let column = 0;
      for (const cell of row.cells) {
        const name = cell.colSpan === 1 ? columns[column] : undefined;
        column += cell.colSpan;
        if (!name) cell.removeAttribute('data-label');
        else if (cell.getAttribute('data-label') !== name) cell.setAttribute('data-label', name);
      }
    }
  }
}
