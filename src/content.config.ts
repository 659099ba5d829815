import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { appData, networkData, pageFrontmatter } from './site/schema.ts';
import { pagesLoader } from './site/pages-loader.ts';
import { contentDir } from './config/config.ts';

// Same files and schemas as src/site/read-content.ts, so HTML pages and the surface integration agree.
export const collections = {
  pages: defineCollection({ loader: pagesLoader({ base: contentDir() }), schema: pageFrontmatter }),
  apps: defineCollection({ loader: glob({ base: `${contentDir()}/apps`, pattern: '*.yaml' }), schema: appData }),
  // The table of the incumbent's network names (aliases.yaml) is no network (src/site/network-names.ts).
  networks: defineCollection({ loader: glob({ base: `${contentDir()}/networks`, pattern: ['*.yaml', '!aliases.yaml'] }), schema: networkData }),
};
