// Context keys (`type:id`, e.g. `tenant:acme`) name what a trigger's `context` was about. The
// activity feed, the inbox and the live socket compare them as exact sets, in one form: the
// sorted, de-duplicated keys joined by `,` ('' without context).

export const contextKeyOf = (contextKeys: readonly string[]): string => [...new Set(contextKeys)].sort().join(',');

/** The keys of a trigger's or session's `context`, sorted. */
export const contextKeysOf = (context: Record<string, { id: string }> | undefined): string[] =>
  Object.entries(context ?? {})
    .map(([type, { id }]) => `${type}:${id}`)
    .sort();
