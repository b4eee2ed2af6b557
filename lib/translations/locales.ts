// Locales as the reference writes them: `language_REGION` (`en_US`), a hyphen accepted for the
// underscore (`en-US` → `en_US`). "Known" is decided by the platform's CLDR data (Node's ICU,
// through Intl.DisplayNames): the language and the region must both be ones it names. That is a
// superset of the reference's fixed list of ~480 locales (docs/differences.md).

/** The organization's default locale when none is set (the reference's DEFAULT_LOCALE). */
export const DEFAULT_LOCALE = 'en_US';

const SHAPE = /^([a-z]{2,3})_([A-Z]{2})$/;
const LANGUAGE_ONLY = /^[a-z]{2,3}$/;

// Built at the first lookup, not at import: building them loads ICU's names (10-25 ms), and every
// consumer imports this module (the translate step, the organization's default locale) while
// most of their jobs never look a locale up.
let names: { languages: Intl.DisplayNames; regions: Intl.DisplayNames } | undefined;
const displayNames = () =>
  (names ??= {
    languages: new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }),
    regions: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }),
  });

const knownLanguage = (language: string) => displayNames().languages.of(language) !== undefined;
/** `ZZ` is CLDR's "Unknown Region". */
const knownRegion = (region: string) => region !== 'ZZ' && displayNames().regions.of(region) !== undefined;

/** The locale in its stored form, or undefined when it is not a known `language_REGION`. */
export function normalizeLocale(value: string): string | undefined {
  const match = SHAPE.exec(value.trim().replace('-', '_'));
  if (!match) return undefined;
  return knownLanguage(match[1]!) && knownRegion(match[2]!) ? `${match[1]}_${match[2]}` : undefined;
}

/**
 * A subscriber's locale as the renderer matches it: a known `language_REGION` in stored form, or
 * a known language alone (`es`), which matches any region of that language (translate-step.ts).
 * Anything else matches nothing, and the default locale is used.
 */
export function subscriberLocale(value: string | null | undefined): { locale: string } | { language: string } | undefined {
  if (!value) return undefined;
  const locale = normalizeLocale(value);
  if (locale) return { locale };
  const language = value.trim().toLowerCase();
  return LANGUAGE_ONLY.test(language) && knownLanguage(language) ? { language } : undefined;
}

export const invalidLocaleMessage = (value: string) => `Invalid locale "${value}": expected a known locale such as en_US (language_REGION)`;
