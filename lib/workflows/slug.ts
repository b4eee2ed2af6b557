import { isId } from '../ids.ts';

// Slugs as the reference builds them: `<slugified name>_wf_<base62 of the id>` for workflows,
// `_st_` for steps and `_lt_` for layouts. The id part is fixed-width, so a slug decodes back to its database id.

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 16 characters, as the reference's slugs; ids from after ~2050 take 17.
const ENCODED_LENGTH = 16;

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function encodeId(hexId: string): string {
  let value = BigInt(`0x${hexId}`);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(ENCODED_LENGTH, '0');
}

export function decodeId(encoded: string): string | undefined {
  let value = 0n;
  for (const char of encoded) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 62n + BigInt(digit);
  }
  const hex = value.toString(16).padStart(24, '0');
  return isId(hex) ? hex : undefined;
}

export const workflowSlug = (name: string, id: string) => `${slugify(name)}_wf_${encodeId(id)}`;
export const stepSlug = (name: string, id: string) => `${slugify(name)}_st_${encodeId(id)}`;
export const layoutSlug = (name: string, id: string) => `${slugify(name)}_lt_${encodeId(id)}`;

/** The database id a slug of the kind (`wf`, `lt`) names, if the text is one. */
function idFromSlug(slug: string, kind: 'wf' | 'lt'): string | undefined {
  const match = new RegExp(`_${kind}_([0-9A-Za-z]{16,17})$`).exec(slug);
  return match ? decodeId(match[1]!) : undefined;
}

export const workflowIdFromSlug = (slug: string) => idFromSlug(slug, 'wf');

/**
 * A record the v2 API names in the path by its key (a workflowId, a layout identifier), its
 * database id or its slug (the reference's ParseSlugIdPipe): the key is tried first.
 */
export async function findByRef<T>(
  ref: string,
  kind: 'wf' | 'lt',
  byKey: (key: string) => Promise<T | undefined>,
  byDbId: (dbId: string) => Promise<T | undefined>,
): Promise<T | undefined> {
  const found = await byKey(ref);
  if (found) return found;
  const dbId = isId(ref) ? ref : idFromSlug(ref, kind);
  return dbId ? byDbId(dbId) : undefined;
}
