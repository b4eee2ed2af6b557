import type { TranslationContent } from './schemas.ts';

// `{{t.key}}` and the quoted `'t.key'` of Liquid filter arguments, replaced by a locale's texts
// before Liquid renders (a text may itself hold Liquid: `Hello {{payload.name}}`). Plain string
// work, no template engine: the consumers' bundles stay as they are.

/** `{{ t.key }}`: whitespace allowed, `t.` in any case (an `upcase` may have made it `T.`). */
const OUTPUT = /\{\{\s*t\.([\p{L}\p{N}_.-]+)\s*\}\}/giu;
/** Liquid outputs and tags, inside which a quoted `'t.key'` is a filter or tag argument. */
const LIQUID = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
const QUOTED = /(['"])t\.([\p{L}\p{N}_.-]+)\1/giu;
/** Cheap test first: most control values name no translation at all. */
const MENTIONS = /t\.[\p{L}\p{N}_]/iu;

export type Resolve = (key: string) => string | undefined;

/**
 * A key's text in one locale's content: nested objects and flat dotted keys both resolve
 * (`{"email": {"subject": …}}`, `{"email.subject": …}`, and mixes of both). Only own keys count.
 */
export function lookup(content: unknown, key: string): string | undefined {
  if (content === null || typeof content !== 'object' || Array.isArray(content)) return undefined;
  const object = content as TranslationContent;
  if (Object.hasOwn(object, key)) {
    const value = object[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  }
  for (let dot = key.indexOf('.'); dot > 0; dot = key.indexOf('.', dot + 1)) {
    const head = key.slice(0, dot);
    if (!Object.hasOwn(object, head)) continue;
    const found = lookup(object[head], key.slice(dot + 1));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A Liquid string literal of `text`, in the quote it replaces (liquidjs reads backslash escapes). */
const literal = (text: string, quote: string) => `${quote}${text.replace(/\\/g, '\\\\').replaceAll(quote, `\\${quote}`)}${quote}`;

/** One template translated; a key that resolves nowhere is rendered as the key and reported. */
export function translateTemplate(template: string, resolve: Resolve, missing: Set<string>): string {
  if (!MENTIONS.test(template)) return template;
  const text = (key: string) => {
    const found = resolve(key);
    if (found === undefined) missing.add(key);
    return found ?? key;
  };
  return template
    .replace(OUTPUT, (_, key: string) => text(key))
    .replace(LIQUID, (block) => block.replace(QUOTED, (_, quote: string, key: string) => literal(text(key), quote)));
}

/** True when some string of the values names a translation (so the translations are worth reading). */
export function mentionsTranslations(values: Record<string, unknown>): boolean {
  return MENTIONS.test(JSON.stringify(values));
}

const TRANSLATION_VARIABLE = /^t\.([\p{L}\p{N}_.-]+)$/iu;

/**
 * A block-editor document (its JSON text) translated value by value, so a text holding quotes
 * keeps the JSON whole; a `variable` node naming `t.key` (the editor's form of `{{t.key}}`)
 * becomes a text node of the key's text, keeping its marks. Undefined when the text is not a
 * document.
 */
function translateDocument(json: string, resolve: Resolve, missing: Set<string>): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || (parsed as { type?: unknown }).type !== 'doc') return undefined;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return translateTemplate(value, resolve, missing);
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const node = value as { type?: unknown; attrs?: { id?: unknown; aliasFor?: unknown }; marks?: unknown };
    const key = node.type === 'variable' ? TRANSLATION_VARIABLE.exec(String(node.attrs?.aliasFor || node.attrs?.id || ''))?.[1] : undefined;
    if (key !== undefined) {
      const text = translateTemplate(`{{t.${key}}}`, resolve, missing);
      return { type: 'text', text, ...(node.marks !== undefined && { marks: node.marks }) };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  };
  return JSON.stringify(walk(parsed));
}

/**
 * Every string of a step's control values translated, a block-editor body as a document (the
 * JSON-logic `skip` is a condition, not content, and is left as it is); the keys found nowhere.
 */
export function translateValues(values: Record<string, unknown>, resolve: Resolve): { values: Record<string, unknown>; missing: string[] } {
  const missing = new Set<string>();
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string')
      return (
        (value.trimStart().startsWith('{') && translateDocument(value, resolve, missing)) || translateTemplate(value, resolve, missing)
      );
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  const out = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, k === 'skip' ? v : walk(v)]));
  return { values: out, missing: [...missing] };
}
