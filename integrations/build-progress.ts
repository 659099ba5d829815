import type { AstroIntegration } from 'astro';

// Tells the process that started `astro build` with an IPC channel (scripts/build.ts, for `npm
// start`'s progress line) how many pages there are to render, and when each is rendered. Started
// any other way (`astro build`, the tests' builds), the build has no channel and this does nothing.

/** What the build sends its parent. */
export type BuildProgressMessage = { crucibleBuild: 'pages'; count: number } | { crucibleBuild: 'rendered' };

export default function crucibleBuildProgress(): AstroIntegration {
  return {
    name: 'crucible-build-progress',
    hooks: {
      'astro:build:start': ({ setPrerenderer }) => {
        if (!process.send || !process.channel) return;
        // The channel must not keep the build running once its work is done.
        process.channel.unref();
        // A send after the parent went away fails in the callback, not as an uncaught error.
        const send = (message: BuildProgressMessage) => process.send?.(message, undefined, {}, () => {});
        setPrerenderer((base) => ({
          ...base,
          async getStaticPaths() {
            const paths = await base.getStaticPaths();
            send({ crucibleBuild: 'pages', count: paths.length });
            return paths;
          },
          async render(request, options) {
            const rendered = await base.render(request, options);
            send({ crucibleBuild: 'rendered' });
            return rendered;
          },
        }));
      },
    },
  };
}
