/** The named fields the caller sent (not undefined): what a partial update changes. */
export function sentFields<T extends object, K extends keyof T>(input: T, fields: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const field of fields) if (input[field] !== undefined) out[field] = input[field];
  return out;
}
