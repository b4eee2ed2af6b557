import type { ReactNode } from 'react';

/** A table with its column headings, scrolling sideways in its own box on a narrow screen. */
export function ScrollTable({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table>
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
