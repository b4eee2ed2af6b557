import type { ReactNode } from 'react';
import { CursorPager } from './CursorPager.tsx';
import type { CursorPage } from './types.ts';

/** A column: its header and what each row shows in it. */
export type Column<T> = readonly [header: string, cell: (row: T) => ReactNode];

/** One cursor page of a list as a table (scrolling sideways on a phone), with its page links. */
export function PageTable<T extends { _id: string }>({ page, columns, label, prefix }: { page: CursorPage<T>; columns: readonly Column<T>[]; label: string; prefix?: string }) {
  return (
    <>
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              {columns.map(([header]) => (
                <th scope="col" key={header}>
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {page.data.map((row) => (
              <tr key={row._id}>
                {columns.map(([header, cell]) => (
                  <td key={header}>{cell(row)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <CursorPager next={page.next} previous={page.previous} label={label} {...(prefix !== undefined && { prefix })} />
    </>
  );
}
