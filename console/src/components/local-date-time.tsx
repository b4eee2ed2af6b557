/** A stored time in the browser's own locale and zone, the exact value kept in `dateTime`. */
export function LocalDateTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <>—</>;
  const date = new Date(iso);
  // A value the browser cannot read is shown as it came, rather than "Invalid Date".
  return <time dateTime={iso}>{Number.isNaN(date.getTime()) ? iso : date.toLocaleString()}</time>;
}
