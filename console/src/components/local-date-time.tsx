/** A stored time in the browser's own locale and zone, the exact value kept in `dateTime`. */
export function LocalDateTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <>—</>;
  return <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;
}
