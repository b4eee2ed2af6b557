import { beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates, renderTemplate } from '#lib/workflows/templates.ts';
import { normalizeLocale, subscriberLocale } from '#lib/translations/locales.ts';
import { chooseLocale } from '#lib/translations/resolve.ts';
import { lookup, translateTemplate, translateValues } from '#lib/translations/translate.ts';

// The template engine is a lazy package (lib/workflows/templates.ts): loaded before the synchronous calls.
beforeAll(() => loadTemplates());

// The pure parts of translations: locale normalisation, key lookup, template substitution and
// the choice of locale. What a subscriber receives is tested through the pipeline
// (test/integration/translations.test.ts).

describe('locales', () => {
  it('normalises hyphens and accepts only known language_REGION pairs', () => {
    expect(normalizeLocale('en-US')).toBe('en_US');
    expect(normalizeLocale('es_ES')).toBe('es_ES');
    expect(normalizeLocale('fil_PH')).toBe('fil_PH');
    for (const bad of ['en', 'EN_us', 'xx_XX', 'en_ZZ', 'en_US_POSIX', '123', '', 'e_US', 'en-us'])
      expect(normalizeLocale(bad), bad).toBeUndefined();
  });

  it('reads a subscriber locale as a locale, a language alone, or nothing', () => {
    expect(subscriberLocale('es-ES')).toEqual({ locale: 'es_ES' });
    expect(subscriberLocale('ES')).toEqual({ language: 'es' });
    expect(subscriberLocale('zz')).toBeUndefined();
    expect(subscriberLocale(null)).toBeUndefined();
  });
});

describe('lookup', () => {
  const content = { flat: 'F', 'a.b': 'flat dotted', a: { c: 'nested', 'd.e': 'mixed' }, n: 3, obj: { x: 1 }, list: ['x'] };

  it('resolves flat, nested, dotted and mixed keys, only to texts', () => {
    expect(lookup(content, 'flat')).toBe('F');
    expect(lookup(content, 'a.b')).toBe('flat dotted');
    expect(lookup(content, 'a.c')).toBe('nested');
    expect(lookup(content, 'a.d.e')).toBe('mixed');
    expect(lookup(content, 'n')).toBe('3');
    expect(lookup(content, 'obj')).toBeUndefined();
    expect(lookup(content, 'list.0')).toBeUndefined();
    expect(lookup(content, 'missing')).toBeUndefined();
  });

  it('never reads inherited properties', () => {
    for (const key of ['constructor', '__proto__', 'toString', 'a.constructor', 'hasOwnProperty'])
      expect(lookup(content, key), key).toBeUndefined();
  });
});

describe('translateTemplate', () => {
  const texts: Record<string, string> = {
    greeting: 'Hello {{payload.name}}',
    quote: `It's "quoted" \\ done`,
    one: 'apple',
    many: 'apples',
  };
  const resolve = (key: string) => texts[key];

  it('replaces {{t.key}} with any whitespace and any case of t., leaving other Liquid alone', () => {
    const missing = new Set<string>();
    const out = translateTemplate('{{t.greeting}} / {{ t.greeting }} / {{T.greeting}} / {{ payload.t }}', resolve, missing);
    expect(out).toBe('Hello {{payload.name}} / Hello {{payload.name}} / Hello {{payload.name}} / {{ payload.t }}');
    expect(renderTemplate(out, { payload: { name: 'Ada' } })).toBe('Hello Ada / Hello Ada / Hello Ada / ');
    expect(missing.size).toBe(0);
  });

  it("replaces quoted 't.key' filter arguments with Liquid string literals, quotes and backslashes escaped", () => {
    const missing = new Set<string>();
    const single = translateTemplate("{{ payload.n | append: ' ' | append: 't.many' }}", resolve, missing);
    expect(renderTemplate(single, { payload: { n: 2 } })).toBe('2 apples');
    const tricky = translateTemplate(`{{ 'x' | replace: 'x', 't.quote' }} and {{ "x" | replace: "x", "t.quote" }}`, resolve, missing);
    expect(renderTemplate(tricky, {})).toBe(`${texts.quote} and ${texts.quote}`);
    // Outside Liquid a quoted 't.key' is plain text.
    expect(translateTemplate("say 't.many'", resolve, missing)).toBe("say 't.many'");
  });

  it('renders a missing key as the key and reports it', () => {
    const missing = new Set<string>();
    expect(translateTemplate('{{t.nope.deep}} {{ x | append: "t.gone" }}', resolve, missing)).toBe('nope.deep {{ x | append: "gone" }}');
    expect([...missing]).toEqual(['nope.deep', 'gone']);
  });
});

describe('translateValues and chooseLocale', () => {
  const contents = {
    en_US: { greeting: 'Hello', bye: 'Bye' },
    es_ES: { greeting: 'Hola' },
    es_MX: { greeting: '¿Qué onda?' },
    pt_BR: { greeting: 'Olá' },
  };

  it('takes the subscriber locale key by key, falling back to the default', () => {
    const choice = chooseLocale(contents, 'es-ES', 'en_US');
    expect(choice.locale).toBe('es_ES');
    const { values, missing } = translateValues(
      { body: '{{t.greeting}}, {{t.bye}}', data: { list: ['{{t.bye}}'] }, skip: { '==': ['{{t.greeting}}', 1] } },
      choice.resolve,
    );
    expect(values).toEqual({ body: 'Hola, Bye', data: { list: ['Bye'] }, skip: { '==': ['{{t.greeting}}', 1] } });
    expect(missing).toEqual([]);
  });

  it('translates a block-editor document value by value: quotes keep the JSON whole, a t.key variable node becomes text', () => {
    const resolve = (key: string) => ({ quote: 'Say "hi" \\ {{ payload.name }}', bold: 'Strong' })[key];
    const body = JSON.stringify({
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: '{{t.quote}}' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'variable', attrs: { id: 't.bold' }, marks: [{ type: 'bold' }] },
            { type: 'variable', attrs: { id: 't.gone' } },
          ],
        },
        { type: 'paragraph', content: [{ type: 'variable', attrs: { id: 'payload.name' } }] },
      ],
    });
    const { values, missing } = translateValues({ body }, resolve);
    expect(JSON.parse(values.body as string).content).toEqual([
      { type: 'paragraph', content: [{ type: 'text', text: 'Say "hi" \\ {{ payload.name }}' }] },
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'Strong', marks: [{ type: 'bold' }] },
          { type: 'text', text: 'gone' },
        ],
      },
      { type: 'paragraph', content: [{ type: 'variable', attrs: { id: 'payload.name' } }] },
    ]);
    expect(missing).toEqual(['gone']);
    // Text that is not a document is translated as text.
    expect(translateValues({ body: '{ "not": "a doc" } {{t.bold}}' }, resolve).values.body).toBe('{ "not": "a doc" } Strong');
  });

  it('matches a language alone to its own region first, else the first locale of that language', () => {
    expect(chooseLocale(contents, 'es', 'en_US').locale).toBe('es_ES');
    expect(chooseLocale(contents, 'pt', 'en_US').locale).toBe('pt_BR');
    expect(chooseLocale(contents, 'de-DE', 'en_US')).toMatchObject({ locale: undefined, requested: 'de_DE' });
    expect(chooseLocale(contents, undefined, 'en_US').resolve('greeting')).toBe('Hello');
  });
});
