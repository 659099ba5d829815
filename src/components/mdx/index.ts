import Callout from './Callout.astro';
import CodeGroup from './CodeGroup.astro';
import Tab from './Tab.astro';
import Tabs from './Tabs.astro';

/** Components MDX pages may use without importing them (see integrations/surface/portable-markdown.ts for their twin form). */
export const mdxComponents = { Callout, CodeGroup, Tab, Tabs };
