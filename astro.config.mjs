// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import crucibleSurface from './integrations/surface/index.ts';
import crucibleApiDev from './integrations/api-dev.ts';
import { buildEnvironment } from './src/config/build-environment.ts';
import { loadDotEnv } from './src/config/env-file.ts';
import { markdownOptions } from './src/site/markdown.ts';

loadDotEnv();
// siteOrigin is the absolute origin written into canonical links, twins, llms.txt and the sitemap.
const environment = buildEnvironment();

export default defineConfig({
  site: environment.siteOrigin,
  // Leaf pages are files (/blog/x -> blog/x.html), homes and section indexes directories.
  build: { format: 'preserve' },
  trailingSlash: 'ignore',
  cacheDir: process.env.CRUCIBLE_CACHE_DIR || './node_modules/.astro',
  markdown: markdownOptions,
  integrations: [mdx(), crucibleSurface({ environment }), crucibleApiDev()],
  // The benchmarks' generated sites (hundreds of thousands of files) are not the site's sources.
  vite: { server: { watch: { ignored: ['**/bench/out/**', '**/bench/.scratch/**'] } } },
});
