import { describe, expect, it } from 'vitest';
import { dashboardTexts, type DashboardTexts } from '../../../src/components/dashboard/client-texts.ts';
import { fill } from '../../../src/components/dashboard/template.ts';
import { locales } from '../../../src/site/locales.ts';
import { ui, uiStringsByKey } from '../../../src/site/ui.ts';

// The dashboard's strings as its scripts get them: text as written, messages formatted at build in
// their locale with markers the browser fills, so no value is lost and none is left unfilled.

const blocks = Object.keys(ui.en.dashboard) as Array<keyof DashboardTexts>;

/** Every string of a texts object, by dotted key. */
function flatten(value: unknown, key = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[key, value]];
  return Object.entries(value as object).flatMap(([name, child]) => flatten(child, key ? `${key}.${name}` : name));
}

describe('dashboardTexts', () => {
  it('fills a message’s placeholders in the page’s language', () => {
    const ja = dashboardTexts('ja', ['common', 'app']);
    expect(fill(ja.common.signedInAs, { email: 'ada@example.com' })).toBe('ada@example.com でサインイン中');
    expect(fill(ja.app.deleteConfirm, { name: 'Shop' })).toBe('Shop を削除しますか？');
    expect(fill(dashboardTexts('en', ['usage']).usage.summary, { what: 'Requests', total: '1,024' })).toBe(
      'Requests: 1,024 in this period. The table beside the chart gives every value.',
    );
  });

  it('gives every string of every locale, text as written and each message with exactly its placeholders', () => {
    for (const locale of locales) {
      const written = uiStringsByKey(locale);
      for (const [key, text] of flatten(dashboardTexts(locale, blocks))) {
        const source = written.get(`dashboard.${key}`)!;
        const names = [...source.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
        const filled = fill(text, Object.fromEntries(names.map((name) => [name, `<${name}>`])));
        expect(filled, `${locale} dashboard.${key}`).toBe(names.reduce((result, name) => result.replaceAll(`{${name}}`, `<${name}>`), source));
        expect(filled, `${locale} dashboard.${key}`).not.toMatch(/[\uE000\uE001]/);
      }
    }
  });
});
