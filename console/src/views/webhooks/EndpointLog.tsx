import type { CursorPage } from '../../api/cursor-page.ts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api } from '../../api/client.ts';
import { CursorPager, useCursor } from '../../components/list-pager.tsx';
import { ScrollTable } from '../../components/scroll-table.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { endpointUrl } from './types.ts';

interface EndpointLogProps<T> {
  environmentId: string;
  endpointId: string;
  /** `attempts` or `dead-letters`: the endpoint's sub-resource, and part of the query's key. */
  kind: string;
  what: string;
  columns: string[];
  empty: string;
  row: (item: T) => ReactNode;
  /** How often to read it again, given the page on screen (false: not by itself). */
  refreshMs?: (items: T[] | undefined) => number | false;
}

/** One of an endpoint's delivery records (attempts, dead letters): a cursor-paged table, the cursor in the URL. */
export function EndpointLog<T>({ environmentId, endpointId, kind, what, columns, empty, row, refreshMs }: EndpointLogProps<T>) {
  const cursor = useCursor();
  const log = useQuery({
    queryKey: ['webhooks', environmentId, kind, endpointId, cursor],
    queryFn: ({ signal }) =>
      api<CursorPage<T>>(environmentId, `${endpointUrl(endpointId)}/${kind}`, { query: { limit: 20, ...cursor }, signal }),
    refetchInterval: (query) => refreshMs?.(query.state.data?.data) ?? false,
  });
  return (
    <QueryState query={log} what={what}>
      {(page) =>
        page.data.length === 0 ? (
          <Empty>{empty}</Empty>
        ) : (
          <>
            <ScrollTable columns={columns}>{page.data.map(row)}</ScrollTable>
            <CursorPager previous={page.previous} next={page.next} />
          </>
        )
      }
    </QueryState>
  );
}

/** The start of a receiver's answer; the whole of it is in the raw JSON. */
export function excerpt(text: string, length = 120): string {
  if (!text) return '(empty)';
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
