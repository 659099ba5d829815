// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import crucibleSurface from './integrations/surface/index.ts';
import crucibleApiDev from './integrations/api-dev.ts';
import { markdownOptions } from './src/site/markdown.ts';

// SITE_URL is the absolute origin written into canonical links, twins, llms.txt and the sitemap.
const site = process.env.SITE_URL || 'http://localhost:4321';

export default defineConfig({
  site,
  // Leaf pages are files (/blog/x -> blog/x.html), homes and section indexes directories.
  build: { format: 'preserve' },
  trailingSlash: 'ignore',
  cacheDir: process.env.CRUCIBLE_CACHE_DIR || './node_modules/.astro',
  markdown: markdownOptions,
  integrations: [mdx(), crucibleSurface(), crucibleApiDev()],
  // The benchmarks' generated sites (hundreds of thousands of files) are not the site's sources.
  vite: { server: { watch: { ignored: ['**/bench/out/**', '**/bench/.scratch/**'] } } },
});
