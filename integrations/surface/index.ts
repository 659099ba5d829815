import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import type { BuildEnvironment } from '../../src/config/build-environment.ts';
import { surfaceManifestFile, type SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { checkContentLinks } from '../../src/site/content-links.ts';
import { loadSite } from '../../src/site/read-content.ts';
import { ContentError } from '../../src/site/records.ts';
import { createSite, type Site } from '../../src/site/site.ts';
import { canonicalPathOf, sitemapIntegrations } from './sitemap.ts';
import { surfaceDevMiddleware } from './dev.ts';
import { DistFiles } from './dist-files.ts';
import { writeStaticHostFiles } from './static-host.ts';
import { startTwinJob, type TwinJob, type TwinJobResult } from './twin-job.ts';
import { rpcTwinSections } from './twin-rpc-sections.ts';
import { writeSurfaceIndexes, writeSurfaceManifest } from './write.ts';

export interface SurfaceOptions {
  /** Sections longer than this are listed in `/<section>/llms.txt` only, linked from `/llms.txt`. */
  llmsInlineLimit?: number;
  /** The environment-derived inputs the site is built with, recorded in the rules manifest. */
  environment: BuildEnvironment;
}

/**
 * The machine-readable twin of the site: `.md` twins, llms.txt family, search JSON, the OpenAPI
 * document, sitemap with hreflang alternates, and the rules manifest the server applies (also
 * written as `_headers` and `_redirects` for static hosts).
 * All of it is generated from the same page records as the HTML pages.
 */
export default function crucibleSurface(options: SurfaceOptions): AstroIntegration {
  const inlineLimit = options.llmsInlineLimit ?? 100;
  const builtPaths = new Set<string>();
  let root = process.cwd();
  let siteUrl = 'http://localhost:4321';
  /** dist/ as configured: Astro empties it before astro:build:setup. */
  let configuredOutDir: string | undefined;
  // Build only: the site read once at config:setup, and the twins rendering in the background.
  let built: { site: Site; twins: TwinJob } | undefined;
  // The manifest written at astro:build:done, and dist/'s files then; the host files follow once the sitemap is in dist/ too.
  let written: { outDir: string; manifest: SurfaceManifest; files: DistFiles } | undefined;
  const timing = { contentCheckMs: 0, outputsMs: 0, outputsDoneAt: 0, hostFilesMs: 0, twins: undefined as TwinJobResult | undefined };
  let buildLogger: AstroIntegrationLogger | undefined;

  const load = async (): Promise<Site> => {
    try {
      return await loadSite(root);
    } catch (error) {
      // Name the file, the field and the reason, without a stack trace.
      if (error instanceof ContentError) throw Object.assign(new Error(error.message), { stack: error.message });
      throw error;
    }
  };

  /** After the sitemap is written: `_headers` and `_redirects`, which cover every file of dist/. */
  const afterSitemap = async () => {
    if (!written) return;
    const started = performance.now();
    written.files.addTopLevel(); // the sitemap's files
    await writeStaticHostFiles(written.outDir, written.manifest, written.files.all());
    timing.hostFilesMs = performance.now() - started;
    logTiming();
  };

  /** The surface's share of the build, for bench/build.ts and anyone profiling; the host files count as outputs. */
  const logTiming = () => {
    if (!buildLogger) return;
    const outputsMs = timing.outputsMs + timing.hostFilesMs;
    const sitemapMs = performance.now() - timing.outputsDoneAt - timing.hostFilesMs;
    const critical = timing.contentCheckMs + outputsMs + sitemapMs;
    const ms = (n: number) => `${Math.round(n)} ms`;
    const twins = timing.twins;
    buildLogger.info(
      `surface timing: content check ${ms(timing.contentCheckMs)}, outputs ${ms(outputsMs)}, sitemap ${ms(sitemapMs)}, critical path ${ms(critical)}; ` +
        `twins rendered in the background in ${ms(twins?.workMs ?? 0)} (${twins?.workers ?? 0} worker threads, peak worker heap ${Math.round((twins?.peakWorkerHeapBytes ?? 0) / 2 ** 20)} MiB); ` +
        `peak RSS so far ${Math.round(process.resourceUsage().maxRSS / 2 ** 10)} MiB`,
    );
  };

  return {
    name: 'crucible-surface',
    hooks: {
      'astro:config:setup': async ({ config, updateConfig, command }) => {
        root = fileURLToPath(config.root);
        if (!config.site) throw new Error('crucible-surface needs `site` in astro.config.mjs (set SITE_URL).');
        siteUrl = config.site;
        if (command === 'build') {
          const started = performance.now();
          const site = withoutBodies(await load()); // fail fast, before Astro renders anything
          const stagingDir = join(fileURLToPath(config.cacheDir), `crucible-surface-${process.pid}`);
          const rpcSections = rpcTwinSections(site, siteUrl, options.environment.nodeDomain);
          // Astro's main thread keeps one core; the twins take the others until build:done.
          built = { site, twins: startTwinJob({ root, site, siteUrl, rpcSections, stagingDir, workers: availableParallelism() - 1 }) };
          timing.contentCheckMs = performance.now() - started;
        }
        updateConfig({ integrations: sitemapIntegrations(builtPaths, () => siteUrl, afterSitemap) });
      },
      'astro:config:done': ({ config }) => {
        configuredOutDir = fileURLToPath(config.outDir);
      },
      // Astro has emptied dist/ by now: twins rendered from here on go straight into it.
      'astro:build:setup': () => {
        if (configuredOutDir) built?.twins.writeInto(configuredOutDir);
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use(
          surfaceDevMiddleware({ root, load, siteUrl: () => siteUrl, nodeDomain: options.environment.nodeDomain, inlineLimit, watcher: server.watcher }),
        );
      },
      'astro:build:done': async ({ dir, pages, logger }) => {
        const started = performance.now();
        const outDir = fileURLToPath(dir);
        if (!built) throw new Error('crucible-surface: astro:build:done ran without astro:config:setup for a build');
        const { site, twins } = built;
        // What Astro wrote, listed once: the page headers, the link check and the host files read it.
        const files = DistFiles.list(outDir);
        for (const { pathname } of pages) {
          const path = pathname.replace(/^\/+|\/+$/g, '');
          if (/^(\d{3})$/.test(path.split('/').pop() ?? '')) continue; // 404, 500
          builtPaths.add(canonicalPathOf(pathname, path === '' || files.has(`${path}/index.html`)));
        }
        twins.boost(availableParallelism()); // Astro is done with the CPU
        // Twin threads still at work take page-header runs once their locales are done; this one takes the rest once it has
        // written the other outputs and checked the links. No thread is started for them: at 10,000 pages on two cores, one
        // reading them during the sitemap made the sitemap 0.9 s slower and the outputs only 0.3 s faster, and added 45 MiB.
        const pageHeaders = twins.pageHeaders(files.dir, files.htmlFiles(), new URL(siteUrl).origin, 0);
        const [twinResult, indexFiles] = await Promise.all([twins.finish(outDir), writeSurfaceIndexes(site, outDir, { siteUrl, inlineLimit, root })]);
        files.add(twinResult.files);
        files.add(indexFiles);
        checkContentLinks({ pages: site.pages, root, files }); // against everything written, twins included
        await twins.helpWithPageHeaders();
        const manifest = await writeSurfaceManifest(site, outDir, { siteUrl, environment: options.environment, pageHeaders: await pageHeaders });
        files.add([surfaceManifestFile]);
        written = { outDir, manifest, files };
        timing.outputsMs = performance.now() - started;
        timing.outputsDoneAt = performance.now();
        timing.twins = twinResult;
        buildLogger = logger;
        logger.info(`wrote ${twinResult.twins} twins, llms.txt files, search JSON, OpenAPI document and manifest in ${Math.round(timing.outputsMs)} ms`);
      },
    },
  };
}

/** The site without page bodies: only the twins need them, and their workers read them from disk. */
function withoutBodies(site: Site): Site {
  return createSite({ pages: site.pages.map((page) => ({ ...page, body: '' })), apps: site.apps, networks: site.networks });
}
