import { describe, expect, it } from 'vitest';
import type { ContentHistory } from '../../../src/site/content-history.ts';
import { locales } from '../../../src/site/locales.ts';
import { pageRecordFromSource, type PageRecord } from '../../../src/site/records.ts';
import { formatCount, translationStatus } from '../../../src/site/translation-status.ts';
import { uiStringsByKey } from '../../../src/site/ui.ts';

const page = (relativePath: string): PageRecord =>
  pageRecordFromSource({ relativePath, data: { title: relativePath, description: 'A page.', date: '2026-01-01' }, body: '' })!;
const pages = ['en/index.md', 'en/blog/a.md', 'en/blog/b.md', 'en/blog/c.md', 'ja/index.md', 'ja/blog/a.md', 'ja/blog/only-in-japanese.md', 'es/blog/b.md'].map(
  page,
);

/** History where each file was last committed on the given day of January 2026. */
const committedOn = (days: Record<string, number>): ContentHistory => ({
  available: true,
  lastCommitOf: (sourcePath) => (sourcePath in days ? new Date(Date.UTC(2026, 0, days[sourcePath])) : undefined),
});

describe('translation status', () => {
  it('counts, per locale, the English pages translated and the UI strings that differ from English', () => {
    const status = translationStatus(pages, committedOn({}));
    const byLocale = new Map(status.locales.map((row) => [row.locale, row]));
    expect(status.locales.map((row) => row.locale)).toEqual([...locales]);
    expect(byLocale.get('en')!.pages).toEqual({ translated: 4, total: 4 });
    expect(byLocale.get('ja')!.pages).toEqual({ translated: 2, total: 4 }); // a page with no English one is not a translation
    expect(byLocale.get('es')!.pages).toEqual({ translated: 1, total: 4 });
    expect(byLocale.get('ko')!.pages).toEqual({ translated: 0, total: 4 });
    const english = uiStringsByKey('en');
    for (const row of status.locales) {
      const same = [...uiStringsByKey(row.locale)].filter(([key, text]) => row.locale !== 'en' && english.get(key) === text).map(([key]) => key);
      expect(row.uiSameAsEnglish, row.locale).toEqual(same);
      expect(row.uiStrings, row.locale).toEqual({ translated: english.size - same.length, total: english.size });
    }
  });

  it('lists translations committed before their English page changed; same-day and uncommitted ones are not outdated', () => {
    const status = translationStatus(
      pages,
      committedOn({ 'content/en/blog/a.md': 10, 'content/ja/blog/a.md': 3, 'content/en/index.md': 5, 'content/ja/index.md': 5, 'content/en/blog/b.md': 10 }),
    );
    const outdated = status.locales.flatMap((row) => row.outdated ?? []);
    expect(outdated.map(({ translation, english }) => [translation.sourcePath, english.sourcePath])).toEqual([
      ['content/ja/blog/a.md', 'content/en/blog/a.md'],
    ]);
    expect(outdated[0]!.englishCommitted.getUTCDate() - outdated[0]!.translationCommitted.getUTCDate()).toBe(7);
  });

  it('leaves outdated pages unknown without history, and keeps the reason', () => {
    const status = translationStatus(pages, { available: false, reason: 'this is a shallow clone' });
    expect(status.locales.every((row) => row.outdated === undefined)).toBe(true);
    expect(status.history).toEqual({ available: false, reason: 'this is a shallow clone' });
  });

  it('shows a count as done or with its share', () => {
    expect([formatCount({ translated: 54, total: 54 }), formatCount({ translated: 10, total: 54 })]).toEqual(['54/54', '10/54 (18%)']);
  });
});
