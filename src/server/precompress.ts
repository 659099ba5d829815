import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import pLimit from 'p-limit';
import { unservedFiles } from '../http/surface-manifest.ts';
import type { SurfaceRules } from '../http/surface-rules.ts';
import { contentTypeByExtension, isCompressible } from './content-types.ts';

// Writes `.br` and `.gz` siblings next to every compressible file of dist/, once, after the
// build; the server (and a CDN) then pick one per Accept-Encoding without compressing per request.

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Smaller files gain less than the bytes Content-Encoding and Vary cost. */
const minimumBytes = 512;
/**
 * Brotli quality, as measured on this site's dist/: 10 is within a point of 11's size in well under
 * half its time, and 5 is an order of magnitude faster again. 10 for pages; 5 for multi-megabyte
 * files (llms-full.txt).
 */
const quality = (bytes: number) => (bytes <= 1024 * 1024 ? 10 : 5);

export interface PrecompressStats {
  files: number;
  bytesIn: number;
  bytesBrotli: number;
  bytesGzip: number;
}

export async function precompressDir(distDir: string, rules: Pick<SurfaceRules, 'typeOf'>, concurrency = 4): Promise<PrecompressStats> {
  const candidates: string[] = [];
  for (const dirent of await readdir(distDir, { recursive: true, withFileTypes: true })) {
    if (!dirent.isFile() || /\.(br|gz)$/.test(dirent.name)) continue;
    const relativePath = relative(distDir, join(dirent.parentPath, dirent.name)).split(sep).join('/');
    if (unservedFiles.has(relativePath)) continue;
    const type = rules.typeOf(`/${relativePath}`) ?? contentTypeByExtension(relativePath);
    if (isCompressible(type)) candidates.push(relativePath);
  }

  const stats: PrecompressStats = { files: 0, bytesIn: 0, bytesBrotli: 0, bytesGzip: 0 };
  await pLimit(concurrency).map(candidates, async (relativePath) => {
    const file = join(distDir, relativePath);
    const source = await readFile(file);
    if (source.byteLength < minimumBytes) return;
    const [br, gz] = await Promise.all([
      brotli(source, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: quality(source.byteLength),
          [constants.BROTLI_PARAM_SIZE_HINT]: source.byteLength,
        },
      }),
      gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    // A variant that is not smaller is never worth sending.
    if (br.byteLength < source.byteLength) await writeFile(`${file}.br`, br);
    if (gz.byteLength < source.byteLength) await writeFile(`${file}.gz`, gz);
    stats.files += 1;
    stats.bytesIn += source.byteLength;
    stats.bytesBrotli += Math.min(br.byteLength, source.byteLength);
    stats.bytesGzip += Math.min(gz.byteLength, source.byteLength);
  });
  return stats;
}
