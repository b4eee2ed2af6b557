/** A time of the API (ISO 8601) in the browser's locale. */
export const localTime = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');
