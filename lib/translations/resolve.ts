import { subscriberLocale } from './locales.ts';
import type { TranslationContent } from './schemas.ts';
import { lookup, type Resolve } from './translate.ts';

// Which locale's texts a subscriber gets: their `locale` when the resource has content in it,
// else the default locale, key by key (a key the subscriber's locale lacks comes from the
// default, as the reference resolves). A language alone (`es`) takes the resource's locale of
// that language: `es_ES` when there is one, else the first of that language by name.

export interface LocaleChoice {
  /** The locale looked in first (undefined: the subscriber's locale matched none). */
  locale: string | undefined;
  /** The subscriber's locale in stored form (`es_ES`), or the language alone; undefined when none or unknown. */
  requested: string | undefined;
  defaultLocale: string;
  resolve: Resolve;
}

export function chooseLocale(
  contents: Record<string, TranslationContent>,
  subscriber: string | null | undefined,
  defaultLocale: string,
): LocaleChoice {
  const wanted = subscriberLocale(subscriber);
  let locale: string | undefined;
  if (wanted && 'locale' in wanted) locale = Object.hasOwn(contents, wanted.locale) ? wanted.locale : undefined;
  else if (wanted) {
    const own = `${wanted.language}_${wanted.language.toUpperCase()}`;
    locale = Object.hasOwn(contents, own)
      ? own
      : Object.keys(contents)
          .sort()
          .find((l) => l.startsWith(`${wanted.language}_`));
  }
  const first = locale === undefined ? undefined : contents[locale];
  const fallback = Object.hasOwn(contents, defaultLocale) ? contents[defaultLocale] : undefined;
  const requested = wanted && ('locale' in wanted ? wanted.locale : wanted.language);
  return { locale, requested, defaultLocale, resolve: (key) => lookup(first, key) ?? lookup(fallback, key) };
}
