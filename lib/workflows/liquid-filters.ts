import { lazy } from '../lazy.ts';

// The filters the reference's Liquid engine adds to Liquid's own (`json`, `digest`, `toSentence`,
// `pluralize`), with its semantics, and how it prints an object or an array: JSON with single
// quotes. Registered on both engines of templates.ts. Arguments are ordinary values: a translation
// key argument (`'t.key'`) is resolved before rendering, not here.
// English plurals come from pluralize, a lazy package (lib/lazy.ts) that templates.ts loads with
// the engine: `loadFilters()` before calling a filter outside a render.

const english = lazy('pluralize', async () => (await import('pluralize')).default);
export const loadFilters = async (): Promise<void> => void (await english.load());
const englishPlural = (word: string, count: number): string => english.get()(word, count);

/** An object or an array as the reference prints it: JSON with `"` turned into `'`. */
function singleQuotedJson(value: unknown, spaces: unknown = 0): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  return JSON.stringify(value, null, Number(spaces) || 0).replace(/"/g, "'");
}

/** What `{{ value }}` prints in text: objects and arrays as single-quoted JSON, nothing for null. */
export function printValue(value: unknown): string {
  return singleQuotedJson(value);
}

/**
 * `{{ count | pluralize: 'comment' }}` → `2 comments`. The count is an array's length, an
 * object's key count or the value as a number; zero, negative or not a number prints nothing.
 * Without a plural (or with `''`) the English plural of the singular is used; `showCount` false
 * prints the word alone.
 */
export function pluralize(value: unknown, singular: unknown = '', plural: unknown = '', showCount: unknown = true): string {
  const count = countOf(value);
  if (!(count > 0)) return '';
  const one = String(singular ?? '');
  const word = plural ? (count === 1 ? one : String(plural)) : englishPlural(one, count);
  return showCount === true || showCount === 'true' ? `${count} ${word}` : word;
}

function countOf(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'object') return Object.keys(value).length;
  return Number(value);
}

/** The texts of a list's items, or of the value at `keyPath` in each (an empty text where there is none). */
function itemTexts(list: unknown[], keyPath: unknown): unknown[] {
  if (!keyPath) return list;
  const path = String(keyPath).split('.');
  return list.map((item) => {
    let value: unknown = item;
    for (const key of path) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (value === null || value === undefined) return '';
    if (typeof value !== 'object') return String(value);
    const json = JSON.stringify(value);
    return json === '{}' ? '' : json;
  });
}

/** A limit argument: a count of names, never below zero. */
const limitOf = (limit: unknown, fallback: number): number => {
  const n = Math.floor(Number(limit ?? fallback));
  return Number.isFinite(n) && n >= 0 ? n : fallback;
};

/**
 * `{{ list | toSentence: keyPath, limit, overflowSuffix, wordsConnector, twoWordsConnector,
 * lastWordConnector }}` (defaults '', 2, 'other', ', ', ' and ', ', and '): `John and Josh`,
 * `John, Josh, and Sarah` within the limit, `John, Josh, and 2 others` past it (the suffix
 * pluralized in English; one name shown is joined by the two-words connector).
 */
export function toSentence(
  list: unknown,
  keyPath: unknown = '',
  limit: unknown = 2,
  overflowSuffix: unknown = 'other',
  wordsConnector: unknown = ', ',
  twoWordsConnector: unknown = ' and ',
  lastWordConnector: unknown = ', and ',
): unknown {
  if (!Array.isArray(list) || list.length === 0) return '';
  const words = itemTexts(list, keyPath);
  const max = limitOf(limit, 2);
  const [connector, two, last] = [wordsConnector, twoWordsConnector, lastWordConnector].map(String);
  if (words.length === 1) return words[0];
  if (words.length === 2) return `${String(words[0])}${two}${String(words[1])}`;
  if (max >= words.length) return `${words.slice(0, -1).join(connector)}${last}${String(words.at(-1))}`;
  const more = words.length - max;
  return `${words.slice(0, max).join(connector)}${max === 1 ? two : last}${more} ${englishPlural(String(overflowSuffix), more)}`;
}

/**
 * `{{ actors | digest: maxNames, keyPath, separator }}`: `John`, `John and Josh`,
 * `John, Josh and Sarah` (three with maxNames ≥ 3), else the first maxNames (2) and
 * `and N other(s)`: toSentence with the separator between names and ` and ` before the last.
 */
export function digest(list: unknown, maxNames: unknown = 2, keyPath?: unknown, separator: unknown = ', '): unknown {
  return toSentence(list, keyPath, maxNames, 'other', separator ?? ', ', ' and ', ' and ');
}

/** A filter argument as written: quoted text, a number, or anything else (a variable, `true`) by its text. */
export type FilterArgument = { kind: 'text' | 'other'; value: string } | { kind: 'number'; value: number };

const TO_SENTENCE_TEXT_ARGS = ['keyPath', 'limit', 'overflowSuffix', 'wordsConnector', 'twoWordsConnector', 'lastWordConnector'];

/**
 * Why a `toSentence` call's arguments are wrong, checked when a step is saved as the reference
 * does: a keyPath is required (non-empty over a digest's `steps.<id>.events`, whose items are
 * events), the limit is a number of at least 0, the other arguments are texts.
 */
export function toSentenceArgsIssue(args: readonly FilterArgument[], overDigestEvents: boolean): string | undefined {
  if (args.length === 0) return '"toSentence" expects at least 1 argument (keyPath)';
  for (const [index, arg] of args.entries()) {
    const name = TO_SENTENCE_TEXT_ARGS[index];
    if (!name) break;
    if (name === 'limit') {
      if (arg.kind !== 'number' || arg.value < 0) return `"toSentence" expects a number of at least 0 for argument "limit"`;
    } else if (arg.kind === 'number') {
      return `"toSentence" expects a string for argument "${name}"`;
    } else if (name === 'keyPath' && overDigestEvents && arg.value === '') {
      return `"toSentence" expects a non-empty string for argument "keyPath" over digest events`;
    }
  }
  return undefined;
}

/** The filters to register on an engine, by name (`json` replaces Liquid's own). */
export const liquidFilters: Record<string, (value: unknown, ...args: unknown[]) => unknown> = {
  json: singleQuotedJson,
  digest,
  toSentence,
  pluralize,
};
