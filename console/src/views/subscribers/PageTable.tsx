import type { ReactNode } from 'react';
import { CursorPager } from '../../components/list-pager.tsx';
import { ScrollTable } from '../../components/scroll-table.tsx';
import type { CursorPage } from '../../api/cursor-page.ts';

/** A column: its header and what each row shows in it. */
export type Column<T> = readonly [header: string, cell: (row: T) => ReactNode];

/** One cursor page of a list as a table (scrolling sideways on a phone), with its page links. */
export function PageTable<T extends { _id: string }>({
  page,
  columns,
  label,
  prefix,
}: {
  page: CursorPage<T>;
  columns: readonly Column<T>[];
  label: string;
  prefix?: string;
}) {
  return (
    <>
      <ScrollTable columns={columns.map(([header]) => header)}>
        {page.data.map((row) => (
          <tr key={row._id}>
            {columns.map(([header, cell]) => (
              <td key={header}>{cell(row)}</td>
            ))}
          </tr>
        ))}
      </ScrollTable>
      <CursorPager next={page.next} previous={page.previous} label={label} {...(prefix !== undefined && { prefix })} />
    </>
  );
}
