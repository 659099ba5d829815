import { locales, localeName, type Locale } from '../../src/site/locales.ts';
import type { PageRecord } from '../../src/site/records.ts';
import { sections, type Section } from '../../src/site/sections.ts';
import type { Site } from '../../src/site/site.ts';
import { ui } from '../../src/site/ui.ts';
import { absoluteUrl, llmsFullUrl, llmsUrl, sectionLlmsUrl } from '../../src/site/urls.ts';

// The llms.txt family (docs/website.md#text-indexes, llmstxt.org format): `# Crucible`, a `>` summary, then
// `## <Section>` lists of `- [Title](absolute .md URL): description`.

export interface LlmsOptions {
  siteUrl: string;
  /** Sections with more pages than this are listed in their own `/<section>/llms.txt` only. */
  inlineLimit: number;
}

function llmsLine(page: PageRecord, siteUrl: string): string {
  return `- [${escapeLinkText(page.title)}](${absoluteUrl(siteUrl, page.twinUrl)}): ${page.description}`;
}

/** `/llms.txt` (English) or `/<locale>/llms.txt`. */
export function renderLlmsTxt(site: Site, locale: Locale, options: LlmsOptions): string {
  const strings = ui[locale];
  const out: string[] = ['# Crucible', '', `> ${strings.siteTagline}`, ''];
  const home = site.home(locale);
  out.push(
    `Every page below has a markdown twin at its \`.md\` URL; HTML URLs also answer \`Accept: text/markdown\`. ` +
      `All page bodies in one file: ${absoluteUrl(options.siteUrl, llmsFullUrl(locale))}.`,
    '',
  );
  if (home) out.push(`- [${escapeLinkText(home.title)}](${absoluteUrl(options.siteUrl, home.twinUrl)}): ${home.description}`, '');
  for (const section of sections) {
    const pages = site.pagesIn(locale, section);
    if (pages.length === 0) continue;
    out.push(`## ${strings.sections[section]}`, '');
    if (pages.length > options.inlineLimit) {
      out.push(
        `- [${strings.sections[section]}: ${pages.length} pages](${absoluteUrl(options.siteUrl, sectionLlmsUrl(locale, section))}): ${strings.allInSection}`,
      );
    } else {
      for (const page of pages) out.push(llmsLine(page, options.siteUrl));
    }
    out.push('');
  }
  const others = locales.filter((l) => l !== locale && site.home(l));
  if (others.length) {
    out.push('## Optional', '');
    for (const other of others) out.push(`- [${localeName[other]}](${absoluteUrl(options.siteUrl, llmsUrl(other))}): llms.txt (${other})`);
    out.push('');
  }
  return out.join('\n');
}

/** `/<section>/llms.txt`: every page of one section in one locale. */
export function renderSectionLlmsTxt(site: Site, locale: Locale, section: Section, options: LlmsOptions): string {
  const strings = ui[locale];
  const pages = site.pagesIn(locale, section);
  return [
    `# Crucible: ${strings.sections[section]}`,
    '',
    `> ${strings.siteTagline}`,
    '',
    `## ${strings.sections[section]}`,
    '',
    ...pages.map((p) => llmsLine(p, options.siteUrl)),
    '',
  ].join('\n');
}

function escapeLinkText(text: string): string {
  return text.replace(/[[\]]/g, (c) => `\\${c}`);
}
