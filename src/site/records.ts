import type { z } from 'zod';
import { isLocale, type Locale } from './locales.ts';
import { isSection, type Section } from './sections.ts';
import { pageFrontmatter, type AppData, type NetworkData, type PageFrontmatter } from './schema.ts';
import { homeUrl, pageUrl, twinUrl } from './urls.ts';

/** One page of the site as every output sees it: HTML, `.md` twin, llms*.txt, search, sitemap. */
export interface PageRecord {
  locale: Locale;
  /** null for the locale's homepage. */
  section: Section | null;
  /** '' for the homepage. */
  slug: string;
  title: string;
  description: string;
  date?: Date;
  updated?: Date;
  authors: string[];
  tags: string[];
  order?: number;
  network?: string;
  company?: string;
  /** Site-relative HTML URL. */
  url: string;
  /** Site-relative `.md` twin URL. */
  twinUrl: string;
  /** Source file relative to the project root, e.g. content/ja/blog/x.mdx. */
  sourcePath: string;
  format: 'md' | 'mdx';
  /** Source body without frontmatter (markdown or MDX). */
  body: string;
  /** Shared by a page and its translations: `<section>/<slug>`, or '' for homepages. */
  translationKey: string;
}

export interface AppRecord extends AppData {
  slug: string;
  sourcePath: string;
}

export interface NetworkRecord extends NetworkData {
  /** The faucet id (docs/website.md#faucet-send), from the file name. */
  id: string;
  sourcePath: string;
}

/** A problem with one content file, reported by file, field and reason. */
export interface ContentIssue {
  file: string;
  field: string;
  message: string;
}

export class ContentError extends Error {
  readonly issues: ContentIssue[];
  constructor(issues: ContentIssue[]) {
    super(`Invalid content (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${issues.map(formatContentIssue).join('\n')}`);
    this.name = 'ContentError';
    this.issues = issues;
  }
}

function formatContentIssue(issue: ContentIssue): string {
  return `  ${issue.file}: ${issue.field ? `field "${issue.field}": ` : ''}${issue.message}`;
}

export function issuesFromZod(file: string, error: z.ZodError): ContentIssue[] {
  return error.issues.map((issue) => ({
    file,
    field: issue.path.map(String).join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : ''),
    message: issue.message,
  }));
}

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type PagePlace = { locale: Locale; section: Section | null; slug: string; format: 'md' | 'mdx' };

/**
 * Where a page lives, from its path under content/: `<locale>/index.md` is a homepage,
 * `<locale>/<section>/<slug>.md(x)` a section page. Returns a reason string when the path is not one of these.
 */
export function placeOfContentPath(relativePath: string): PagePlace | string {
  const match = /^([^/]+)\/(?:([^/]+)\/)?([^/]+)\.(mdx?)$/.exec(relativePath);
  if (!match) return 'content files live at content/<locale>/<section>/<slug>.md or content/<locale>/index.md';
  const [, locale, section, slug, ext] = match as unknown as [string, string, string | undefined, string, 'md' | 'mdx'];
  if (!isLocale(locale)) return `unknown locale "${locale}"`;
  if (section === undefined) {
    return slug === 'index' ? { locale, section: null, slug: '', format: ext } : 'only index.md may sit directly in a locale folder';
  }
  if (!isSection(section)) return `unknown section "${section}"`;
  if (!slugPattern.test(slug)) return `slug "${slug}" must be lowercase words joined by hyphens`;
  return { locale, section, slug, format: ext };
}

/** Validates one page's frontmatter and derives its record. Throws ContentError naming the file. */
export function pageRecordFromSource(source: { relativePath: string; data: unknown; body: string; contentDir?: string }): PageRecord | null {
  const file = `${source.contentDir ?? 'content'}/${source.relativePath}`;
  const place = placeOfContentPath(source.relativePath);
  if (typeof place === 'string') throw new ContentError([{ file, field: '', message: place }]);
  const parsed = pageFrontmatter.safeParse(source.data ?? {});
  if (!parsed.success) throw new ContentError(issuesFromZod(file, parsed.error));
  const fm: PageFrontmatter = parsed.data;
  if (fm.draft) return null;
  const url = place.section === null ? homeUrl(place.locale) : pageUrl(place.locale, place.section, place.slug);
  return {
    locale: place.locale,
    section: place.section,
    slug: place.slug,
    title: fm.title,
    description: fm.description,
    date: fm.date,
    updated: fm.updated,
    authors: fm.authors ?? [],
    tags: fm.tags ?? [],
    order: fm.order,
    network: fm.network,
    company: fm.company,
    url,
    twinUrl: twinUrl(url),
    sourcePath: file,
    format: place.format,
    body: source.body,
    translationKey: place.section === null ? '' : `${place.section}/${place.slug}`,
  };
}

/** Newest first for dated sections, otherwise by `order` then title. */
export function comparePages(a: PageRecord, b: PageRecord): number {
  if (a.date && b.date && a.date.getTime() !== b.date.getTime()) return b.date.getTime() - a.date.getTime();
  if (a.date && !b.date) return -1;
  if (!a.date && b.date) return 1;
  const orderA = a.order ?? Number.MAX_SAFE_INTEGER;
  const orderB = b.order ?? Number.MAX_SAFE_INTEGER;
  if (orderA !== orderB) return orderA - orderB;
  return a.title.localeCompare(b.title);
}
