import type { ReactNode } from 'react';
import { ApiError } from '../api/errors.ts';

// The states every view shows the same way: loading, failed (with the API's own message), empty.

export function Loading({ what }: { what: string }) {
  return (
    <p aria-busy="true" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof ApiError ? ` (${error.status})` : '';
  return (
    <article role="alert" className="error-note">
      <strong>
        {title}
        {status}
      </strong>
      <p>{message}</p>
    </article>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** A query's three states in one place: `children` renders the data once there is some. */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined };
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <ErrorNote error={query.error} title={`Could not load ${what}`} />;
  if (query.isPending || query.data === undefined) return <Loading what={what} />;
  return <>{children(query.data)}</>;
}
