import { Link, useSearchParams } from 'react-router';

/**
 * "Newer" / "Older" links of a cursor page. The cursors live in the URL (`<prefix>after` /
 * `<prefix>before`), beside the view's other parameters, so a page can be shared.
 */
export function CursorPager({ next, previous, prefix = '', label }: { next: string | null; previous: string | null; prefix?: string; label: string }) {
  const [params] = useSearchParams();
  if (!next && !previous) return null;
  const to = (name: 'after' | 'before', cursor: string) => {
    const copy = new URLSearchParams(params);
    copy.delete(`${prefix}after`);
    copy.delete(`${prefix}before`);
    copy.set(`${prefix}${name}`, cursor);
    return `?${copy.toString()}`;
  };
  return (
    <nav aria-label={label}>
      <ul>
        <li>{previous ? <Link to={to('before', previous)}>← Previous page</Link> : <span aria-disabled="true">← Previous page</span>}</li>
      </ul>
      <ul>
        <li>{next ? <Link to={to('after', next)}>Next page →</Link> : <span aria-disabled="true">Next page →</span>}</li>
      </ul>
    </nav>
  );
}

/** The cursor parameters of the URL, as the API's list query takes them. */
export function cursorOf(params: URLSearchParams, prefix = ''): { after?: string; before?: string } {
  const after = params.get(`${prefix}after`);
  const before = params.get(`${prefix}before`);
  return { ...(after && { after }), ...(before && { before }) };
}
