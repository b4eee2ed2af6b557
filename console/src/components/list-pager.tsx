import { Link, useSearchParams } from 'react-router';

// Paging kept in the URL (`?page=` for offset lists, `?after=`/`?before=` for cursor lists), so a
// copied link opens the same page; the other query parameters (search, tab) are kept. A view with
// two cursor lists gives the second a prefix (`?topicsafter=`).

const PREVIOUS = '← Previous page';
const NEXT = 'Next page →';

function withParams(params: URLSearchParams, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) next.delete(name);
    else next.set(name, value);
  }
  const text = next.toString();
  return text ? `?${text}` : '?';
}

/** The 0-based page of an offset list, from `?page=` (1-based, as a person reads it). */
export function usePageIndex(): number {
  const [params] = useSearchParams();
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page > 1 ? page - 1 : 0;
}

export function OffsetPager({ pageIndex, pageSize, total }: { pageIndex: number; pageSize: number; total: number }) {
  const [params] = useSearchParams();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1 && pageIndex === 0) return null;
  return (
    <nav aria-label="Pages">
      <ul>
        <li>
          {pageIndex > 0 ? (
            <Link to={withParams(params, { page: pageIndex === 1 ? undefined : String(pageIndex) })}>{PREVIOUS}</Link>
          ) : null}
        </li>
        <li>
          Page {pageIndex + 1} of {pages}
        </li>
        <li>{pageIndex + 1 < pages ? <Link to={withParams(params, { page: String(pageIndex + 2) })}>{NEXT}</Link> : null}</li>
      </ul>
    </nav>
  );
}

/** The cursor of a cursor list's page, from `?<prefix>after=` or `?<prefix>before=`. */
export function useCursor(prefix = ''): { after?: string; before?: string } {
  const [params] = useSearchParams();
  const after = params.get(`${prefix}after`) ?? undefined;
  const before = params.get(`${prefix}before`) ?? undefined;
  return { ...(after && { after }), ...(before && { before }) };
}

export function CursorPager({
  previous,
  next,
  prefix = '',
  label = 'Pages',
}: {
  previous: string | null;
  next: string | null;
  prefix?: string;
  label?: string;
}) {
  const [params] = useSearchParams();
  if (!previous && !next) return null;
  const to = (name: 'after' | 'before', cursor: string) =>
    withParams(params, { [`${prefix}after`]: undefined, [`${prefix}before`]: undefined, [`${prefix}${name}`]: cursor });
  return (
    <nav aria-label={label}>
      <ul>
        <li>{previous ? <Link to={to('before', previous)}>{PREVIOUS}</Link> : null}</li>
        <li>{next ? <Link to={to('after', next)}>{NEXT}</Link> : null}</li>
      </ul>
    </nav>
  );
}

/** The URL of this view with some query parameters changed (undefined removes one). */
export function useParamsLink(): (changes: Record<string, string | undefined>) => string {
  const [params] = useSearchParams();
  return (changes) => withParams(params, changes);
}
