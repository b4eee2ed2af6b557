/** The value at a dotted path (`post.id`, or `payload.post.id` / `{{payload.post.id}}` as dashboards write it). */
export function valueAtPath(payload: Record<string, unknown>, path: string): unknown {
  const clean = path.replace(/^\s*\{\{\s*|\s*\}\}\s*$/g, '').replace(/^payload\./, '');
  let value: unknown = payload;
  for (const part of clean.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
