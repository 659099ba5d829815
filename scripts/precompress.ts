import { resolve } from 'node:path';
import { precompressDir } from '../src/server/precompress.ts';
import { loadSurfaceRules } from '../src/server/surface-rules.ts';

// `npm run build` step after `astro build`: .br and .gz siblings for dist/ (src/server/precompress.ts).

const distDir = resolve(process.argv[2] ?? 'dist');
const started = performance.now();
const stats = await precompressDir(distDir, await loadSurfaceRules(distDir));
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `precompress: ${stats.files} files, ${mb(stats.bytesIn)} MB -> brotli ${mb(stats.bytesBrotli)} MB, gzip ${mb(stats.bytesGzip)} MB in ${Math.round(performance.now() - started)} ms`,
);
