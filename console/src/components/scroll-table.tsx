import type { ReactNode } from 'react';

/** A table with its column headings, scrolling sideways in its own box on a narrow screen. */
export function ScrollTable({
  columns,
  children,
  className,
  labelledBy,
}: {
  columns: readonly string[];
  children: ReactNode;
  className?: string;
  /** The id of the heading that names the table, where a page has several. */
  labelledBy?: string;
}) {
  return (
    <div className="table-scroll">
      <table className={className} aria-labelledby={labelledBy}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
