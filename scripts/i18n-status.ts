// `npm run i18n:status`: per locale, the pages and UI strings translated from English and the
// translations whose English page changed after them (the table /authors/translations shows).
import { resolve } from 'node:path';
import { contentHistory } from '../src/site/content-history.ts';
import { loadSite } from '../src/site/read-content.ts';
import { formatCount, formatDay, translationStatus, type LocaleStatus } from '../src/site/translation-status.ts';

const root = resolve(import.meta.dirname, '..');
const site = await loadSite(root);
const status = translationStatus(site.pages, await contentHistory(root));

const columns: Array<[heading: string, cell: (row: LocaleStatus) => string]> = [
  ['locale', (row) => row.locale],
  ['pages', (row) => formatCount(row.pages)],
  ['UI strings', (row) => formatCount(row.uiStrings)],
  ['outdated pages', (row) => (row.outdated ? String(row.outdated.length) : '?')],
];
const rows = [columns.map(([heading]) => heading), ...status.locales.map((row) => columns.map(([, cell]) => cell(row)))];
const widths = columns.map((_, i) => Math.max(...rows.map((cells) => cells[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;

const out = ['Translations from English, per locale', '', line(rows[0]!), line(widths.map((width) => '-'.repeat(width))), ...rows.slice(1).map(line), ''];
if (!status.history.available) out.push(`Outdated pages: unknown, ${status.history.reason}.`);
else {
  const outdated = status.locales.flatMap((row) => row.outdated ?? []);
  out.push(`Outdated translations (the English page was committed after them): ${outdated.length || 'none'}`);
  for (const { translation, english, translationCommitted, englishCommitted } of outdated) {
    out.push(`  ${translation.sourcePath}: ${english.sourcePath} committed ${formatDay(englishCommitted)}, the translation ${formatDay(translationCommitted)}`);
  }
}
out.push('', 'UI strings the same as in English (untranslated, or the same word):');
for (const row of status.locales) if (row.uiSameAsEnglish.length) out.push(`  ${row.locale}: ${row.uiSameAsEnglish.join(', ')}`);
console.log(out.join('\n'));
