// Opaque page cursors: the sort-key value of the boundary item, base64url-encoded so clients do
// not build or depend on key formats. The partition always comes from the caller's scope, never
// from the cursor, so a cursor cannot reach another tenant's data.

export function encodeCursor(sortKey: string): string {
  return Buffer.from(sortKey, 'utf8').toString('base64url');
}

/** The sort-key value of a cursor; undefined for anything this module did not produce. */
export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  return encodeCursor(sortKey) === cursor ? sortKey : undefined;
}
