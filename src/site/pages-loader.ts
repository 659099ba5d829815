import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { glob } from 'tinyglobby';
import { pageGlob, splitFrontmatter } from './load.ts';

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
      const seen = new Set<string>();
      for (const file of files) seen.add(await syncPage(context, root, base, file));
      for (const id of context.store.keys()) if (!seen.has(id)) context.store.delete(id);

      context.watcher?.add(base);
      const onChange = async (path: string) => {
        const file = relative(base, path).split('\\').join('/');
        if (file.startsWith('..') || !/\.mdx?$/.test(file)) return;
        await syncPage(context, root, base, file).catch((error: Error) => context.logger.error(`${file}: ${error.message}`));
      };
      context.watcher?.on('change', onChange);
      context.watcher?.on('add', onChange);
      context.watcher?.on('unlink', (path) => context.store.delete(relative(base, path).split('\\').join('/')));
    },
  };
}

/** Validates and stores one page; returns its id, the path under the content folder. */
async function syncPage(context: LoaderContext, root: string, base: string, file: string): Promise<string> {
  const absolute = join(base, file);
  const source = await readFile(absolute, 'utf8');
  const filePath = relative(root, absolute).split('\\').join('/');
  const { data } = splitFrontmatter(source);
  const parsed = await context.parseData({ id: file, data: (data ?? {}) as Record<string, unknown>, filePath });
  context.store.set({ id: file, data: parsed, filePath });
  return file;
}
