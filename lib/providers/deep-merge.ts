// Merging override objects that come from API callers: plain objects merge key by key, anything
// else (arrays included) replaces. Keys that could reach a prototype are dropped.

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function deepMerge(base: Record<string, unknown>, extra: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  if (!isPlainObject(extra)) return result;
  for (const [key, value] of Object.entries(extra)) {
    if (UNSAFE_KEYS.has(key) || value === undefined) continue;
    const current = result[key];
    result[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return result;
}

/** The plain object at `value`, or an empty one. */
export const objectOr = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});

/** The object's values as strings (JSON for non-strings); null and undefined are dropped. */
export function stringValues(value: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, v] of Object.entries(objectOr(value))) {
    if (UNSAFE_KEYS.has(key) || v === undefined || v === null) continue;
    result[key] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return result;
}
