import type { ShikiTransformer } from 'shiki';

/** Carries a fence's `title="…"` meta onto `<pre data-title>`, where <CodeGroup> reads it. */
export const codeTitleTransformer: ShikiTransformer = {
  name: 'crucible:code-title',
  pre(node) {
    const title = /(?:^|\s)title="([^"]*)"/.exec(this.options.meta?.__raw ?? '')?.[1];
    if (title) node.properties['data-title'] = title;
  },
};
