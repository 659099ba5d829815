import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { satteri } from '@astrojs/markdown-satteri';
import type { MarkdownHeading } from 'astro';
import type { SatteriMarkdownProcessorOptions } from '@astrojs/markdown-satteri';
import { codeTitleTransformer } from '../../integrations/shiki-code-title.ts';
import { splitFrontmatter } from './load.ts';

// How pages' Markdown becomes HTML. astro.config.mjs hands the same options to Astro (which
// renders .mdx pages with them), and renderMarkdownPage renders .md pages with Astro's own
// Markdown processor, so both kinds of page come out alike.

export const markdownOptions = {
  shikiConfig: { themes: { light: 'github-light', dark: 'github-dark' }, transformers: [codeTitleTransformer] },
} satisfies SatteriMarkdownProcessorOptions;

let renderer: ReturnType<ReturnType<typeof satteri>['createRenderer']> | undefined;

/**
 * Renders a `.md` page file (path relative to the project root) when its HTML page is built,
 * so rendered HTML never piles up in Astro's content store (src/site/pages-loader.ts).
 */
export async function renderMarkdownPage(filePath: string): Promise<{ html: string; headings: MarkdownHeading[] }> {
  renderer ??= satteri().createRenderer(markdownOptions);
  const absolute = resolve(process.cwd(), filePath);
  const { data, body } = splitFrontmatter(await readFile(absolute, 'utf8'));
  const { code, metadata } = await (await renderer).render(body.trim(), { fileURL: pathToFileURL(absolute), frontmatter: data as Record<string, unknown> });
  // Astro's image pipeline only runs on what its own loader rendered; say so rather than ship a broken <img>.
  if (metadata.localImagePaths.length) throw new Error(`${filePath}: relative image paths (${metadata.localImagePaths.join(', ')}) are not supported; put images under public/ and link them from the site root`);
  return { html: code, headings: metadata.headings };
}
