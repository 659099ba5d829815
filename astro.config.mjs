// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import crucibleSurface from './integrations/surface/index.ts';
import crucibleBuildProgress from './integrations/build-progress.ts';
import crucibleApiDev from './integrations/api-dev.ts';
import { astroCacheDir, buildConfig } from './src/config/config.ts';
import { markdownOptions } from './src/site/markdown.ts';

// siteOrigin is the absolute origin written into canonical links, twins, llms.txt and the sitemap.
const environment = buildConfig();

export default defineConfig({
  site: environment.siteOrigin,
  // Leaf pages are files (/blog/x -> blog/x.html), homes and section indexes directories.
  build: { format: 'preserve' },
  trailingSlash: 'ignore',
  cacheDir: astroCacheDir(),
  markdown: markdownOptions,
  integrations: [mdx(), crucibleSurface({ environment }), crucibleApiDev(), crucibleBuildProgress()],
  // The benchmarks' generated sites (hundreds of thousands of files) are not the site's sources.
  vite: { server: { watch: { ignored: ['**/bench/out/**', '**/bench/.scratch/**'] } } },
});
