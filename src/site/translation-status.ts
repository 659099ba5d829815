import type { ContentHistory } from './content-history.ts';
import { defaultLocale, locales, type Locale } from './locales.ts';
import type { PageRecord } from './records.ts';
import { uiStringsByKey } from './ui.ts';

// How far each locale's translation has come, against English: pages, UI strings, and the
// translations whose English page was committed after them. `npm run i18n:status` prints it and
// /authors/translations shows it; both take their numbers from translationStatus.

export interface Count {
  translated: number;
  total: number;
}

/** A translation whose English page was committed after it. */
interface OutdatedTranslation {
  translation: PageRecord;
  english: PageRecord;
  translationCommitted: Date;
  englishCommitted: Date;
}

export interface LocaleStatus {
  locale: Locale;
  /** English pages with a page at the same path in this locale. */
  pages: Count;
  /** UI strings that differ from English; for English, all of them. */
  uiStrings: Count;
  /** Keys whose string is the English one: untranslated, or the same word in both (`RPC`). */
  uiSameAsEnglish: string[];
  /** Undefined when the history is unavailable. */
  outdated: OutdatedTranslation[] | undefined;
}

export interface TranslationStatus {
  locales: LocaleStatus[];
  history: ContentHistory;
}

export function translationStatus(pages: readonly PageRecord[], history: ContentHistory): TranslationStatus {
  const english = new Map(pages.filter((page) => page.locale === defaultLocale).map((page) => [page.translationKey, page]));
  const englishStrings = uiStringsByKey(defaultLocale);

  return {
    history,
    locales: locales.map((locale): LocaleStatus => {
      const translations = pages.filter((page) => page.locale === locale && english.has(page.translationKey));
      const strings = uiStringsByKey(locale);
      const sameAsEnglish = locale === defaultLocale ? [] : [...strings].filter(([key, text]) => englishStrings.get(key) === text).map(([key]) => key);
      return {
        locale,
        pages: { translated: translations.length, total: english.size },
        uiStrings: { translated: strings.size - sameAsEnglish.length, total: englishStrings.size },
        uiSameAsEnglish: sameAsEnglish,
        outdated: history.available
          ? translations.flatMap((translation) => outdatedOrNot(translation, english.get(translation.translationKey)!, history.lastCommitOf))
          : undefined,
      };
    }),
  };
}

function outdatedOrNot(translation: PageRecord, english: PageRecord, lastCommitOf: (sourcePath: string) => Date | undefined): OutdatedTranslation[] {
  const translationCommitted = lastCommitOf(translation.sourcePath);
  const englishCommitted = lastCommitOf(english.sourcePath);
  // A file never committed has no date to compare: a new translation is not outdated yet.
  if (!translationCommitted || !englishCommitted || englishCommitted <= translationCommitted) return [];
  return [{ translation, english, translationCommitted, englishCommitted }];
}

/** `10/54 (18%)`, or `54/54` when complete. */
export function formatCount({ translated, total }: Count): string {
  return `${translated}/${total}${translated < total ? ` (${Math.floor((100 * translated) / total)}%)` : ''}`;
}

/** A commit's day, `2026-06-01` (UTC). */
export function formatDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
