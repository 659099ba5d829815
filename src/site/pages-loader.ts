import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { glob } from 'tinyglobby';
import { pageGlob, splitFrontmatter } from './read-content.ts';
import { placeOfContentPath } from './records.ts';

/**
 * The `pages` collection: each page's frontmatter and file path, and nothing rendered.
 *
 * Astro's glob() loader renders every Markdown page at content sync and keeps the HTML (and
 * the source) in its data store, which a build then bundles as one module, and makes every
 * MDX page a module of its own for the build to bundle: memory grew with the site (4.1 GiB at
 * 10,000 pages) and 50,000 pages did not fit in one string. Here the store holds frontmatter
 * only, and each page's body is rendered when its HTML page is prerendered (src/site/markdown.ts).
 */
export function pagesLoader(options: { base: string }): Loader {
  return {
    name: 'crucible-pages',
    async load(context) {
      const root = fileURLToPath(context.config.root);
      const base = resolve(root, options.base);
      const files = await glob(pageGlob, { cwd: base });
      if (!files.length) throw new Error(`no pages under ${base}`);
      // One at a time: reading 64 at once (as loadSite does) took the sync of 50,000 pages from
      // 18 s to 13 s but left the build at 4 min, and raised its peak RSS from 1.69 to 1.89 GiB.
      for (const file of files) await syncPage(context, root, base, file);
      const present = new Set(files);
      for (const id of context.store.keys()) if (!present.has(id)) context.store.delete(id);

      context.watcher?.add(base);
      const pageFile = (path: string) => {
        const file = relative(base, path).split('\\').join('/');
        return typeof placeOfContentPath(file) === 'string' ? undefined : file;
      };
      const onChange = async (path: string) => {
        const file = pageFile(path);
        if (file) await syncPage(context, root, base, file).catch((error: Error) => context.logger.error(`${file}: ${error.message}`));
      };
      context.watcher?.on('change', onChange);
      context.watcher?.on('add', onChange);
      context.watcher?.on('unlink', (path) => {
        const file = pageFile(path);
        if (file) context.store.delete(file);
      });
    },
  };
}

/** Validates and stores one page; its id is its path under the content folder. */
async function syncPage(context: LoaderContext, root: string, base: string, file: string): Promise<void> {
  const absolute = join(base, file);
  const source = await readFile(absolute, 'utf8');
  const filePath = relative(root, absolute).split('\\').join('/');
  const { data } = splitFrontmatter(source);
  const parsed = await context.parseData({ id: file, data: (data ?? {}) as Record<string, unknown>, filePath });
  context.store.set({ id: file, data: parsed, filePath });
}
