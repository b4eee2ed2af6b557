// The feed's `payload` filter: base64 of a JSON object; a message matches when its payload holds
// every key/value of it. Nested objects (and arrays) are flattened to paths as the reference
// flattens them, so `{a: {b: 1}}` asks for `payload.a.b = 1`, not for `payload.a` to equal `{b: 1}`.

/** One condition: the path under `payload` (numbers index lists) and the value it must hold. */
export interface PayloadCondition {
  path: (string | number)[];
  /** null matches a missing value too, as the reference's query does. */
  value: string | number | boolean | null;
}

const MAX_CONDITIONS = 20;
const MAX_DEPTH = 10;
const MAX_KEY_LENGTH = 256;
/** What the table can compare with: the range DynamoDB numbers hold, kept to exact integers. */
const MIN_MAGNITUDE = 1e-130;

/** No lone surrogate halves: the store cannot encode them as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isWellFormed = (text: string) => !LONE_SURROGATE.test(text);

export type DecodedPayloadFilter = { ok: true; conditions: PayloadCondition[] } | { ok: false; message: string };

export function decodePayloadFilter(encoded: string): DecodedPayloadFilter {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    return { ok: false, message: 'payload must be a base64-encoded JSON object' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, message: 'payload must be a base64-encoded JSON object' };
  }
  const conditions: PayloadCondition[] = [];
  // Iterative, so a deeply nested object is refused without walking the call stack down.
  const pending: [value: unknown, path: (string | number)[]][] = [[parsed, []]];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    if (value !== null && typeof value === 'object') {
      if (path.length >= MAX_DEPTH) return { ok: false, message: `payload must not be nested deeper than ${MAX_DEPTH} levels` };
      const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
      for (const [key, child] of entries.reverse()) {
        if (typeof key === 'string' && (key === '' || key.length > MAX_KEY_LENGTH || !isWellFormed(key))) {
          return { ok: false, message: `payload keys must be 1 to ${MAX_KEY_LENGTH} characters of valid text` };
        }
        pending.push([child, [...path, key]]);
      }
      continue;
    }
    const leaf = scalar(value);
    if (!leaf.ok) return leaf;
    conditions.push({ path, value: leaf.value });
    if (conditions.length > MAX_CONDITIONS) return { ok: false, message: `payload may hold at most ${MAX_CONDITIONS} values` };
  }
  return { ok: true, conditions };
}

function scalar(value: unknown): { ok: true; value: PayloadCondition['value'] } | { ok: false; message: string } {
  if (typeof value === 'number') {
    const magnitude = Math.abs(value);
    if (magnitude > Number.MAX_SAFE_INTEGER || (magnitude > 0 && magnitude < MIN_MAGNITUDE)) {
      return { ok: false, message: 'payload numbers must be within the range the store can compare' };
    }
    return { ok: true, value };
  }
  if (typeof value === 'string' && !isWellFormed(value)) return { ok: false, message: 'payload strings must be valid text' };
  return { ok: true, value: value as string | boolean | null };
}
