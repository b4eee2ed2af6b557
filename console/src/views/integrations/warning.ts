// The API's `Warning: 299 - "…"` header: what it did less than asked without failing (here, a
// `check: true` for a provider it has no way to test without sending).

export function warningOf(headers: Headers): string | undefined {
  const quoted = /^\d{3} \S+ "((?:[^"\\]|\\.)*)"/.exec(headers.get('warning') ?? '')?.[1];
  return quoted?.replace(/\\(.)/g, '$1');
}

/** Calls `request` with a headers callback; its answer and the warning it came with. */
export async function withWarning<T>(
  request: (onHeaders: (headers: Headers) => void) => Promise<T>,
): Promise<{ body: T; warning?: string }> {
  let warning: string | undefined;
  const body = await request((headers) => {
    warning = warningOf(headers);
  });
  return { body, ...(warning && { warning }) };
}
