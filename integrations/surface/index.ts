import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { loadSite } from '../../src/site/load.ts';
import { ContentError } from '../../src/site/records.ts';
import type { Site } from '../../src/site/site.ts';
import { canonicalPathOf, sitemapIntegrations } from './sitemap.ts';
import { surfaceDevMiddleware } from './dev.ts';
import { writeSurface } from './write.ts';

export interface SurfaceOptions {
  /** Sections longer than this are listed in `/<section>/llms.txt` only, linked from `/llms.txt`. */
  llmsInlineLimit?: number;
}

/**
 * The machine-readable twin of the site: `.md` twins, llms.txt family, search JSON,
 * sitemap with hreflang alternates, and the rules manifest the server applies.
 * All of it is generated from the same page records as the HTML pages.
 */
export default function crucibleSurface(options: SurfaceOptions = {}): AstroIntegration {
  const inlineLimit = options.llmsInlineLimit ?? 100;
  const builtPaths = new Set<string>();
  let root = process.cwd();
  let siteUrl = 'http://localhost:4321';

  const load = async (): Promise<Site> => {
    try {
      return await loadSite(root);
    } catch (error) {
      // Name the file, the field and the reason, without a stack trace.
      if (error instanceof ContentError) throw Object.assign(new Error(error.message), { stack: error.message });
      throw error;
    }
  };

  return {
    name: 'crucible-surface',
    hooks: {
      'astro:config:setup': async ({ config, updateConfig, command }) => {
        root = fileURLToPath(config.root);
        if (!config.site) throw new Error('crucible-surface needs `site` in astro.config.mjs (set SITE_URL).');
        siteUrl = config.site;
        if (command === 'build') await load(); // fail fast, before Astro renders anything
        updateConfig({ integrations: sitemapIntegrations(builtPaths, () => siteUrl) });
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use(surfaceDevMiddleware({ load, siteUrl: () => siteUrl, inlineLimit, watcher: server.watcher }));
      },
      'astro:build:done': async ({ dir, pages, logger }) => {
        const started = performance.now();
        const outDir = fileURLToPath(dir);
        for (const { pathname } of pages) {
          if (/^(\d{3})$/.test(pathname.replace(/^\/|\/$/g, '').split('/').pop() ?? '')) continue; // 404, 500
          const isIndex = pathname.replace(/\/$/, '') === '' || existsSync(`${outDir}/${pathname.replace(/\/$/, '')}/index.html`);
          builtPaths.add(canonicalPathOf(pathname, isIndex));
        }
        const site = await load();
        const stats = await writeSurface(site, outDir, { siteUrl, inlineLimit });
        const ms = Math.round(performance.now() - started);
        logger.info(`wrote ${stats.twins} twins, llms.txt files, search JSON and manifest in ${ms} ms`);
      },
    },
  };
}
