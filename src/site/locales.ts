/** The seven site locales. English is the default and has unprefixed URLs. */
export const locales = ['en', 'ja', 'es', 'ko', 'zh-Hans', 'zh-Hant', 'pt-BR'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

/** BCP 47 tags used in `lang`, `hreflang` and sitemap alternates. */
export const localeLang: Record<Locale, string> = {
  en: 'en',
  ja: 'ja',
  es: 'es',
  ko: 'ko',
  'zh-Hans': 'zh-Hans',
  'zh-Hant': 'zh-Hant',
  'pt-BR': 'pt-BR',
};

/** Names shown in the locale switcher, each in its own language. */
export const localeName: Record<Locale, string> = {
  en: 'English',
  ja: '日本語',
  es: 'Español',
  ko: '한국어',
  'zh-Hans': '简体中文',
  'zh-Hant': '繁體中文',
  'pt-BR': 'Português (Brasil)',
};

export function isLocale(value: string): value is Locale {
  return (locales as readonly string[]).includes(value);
}
