import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Locale } from '../../src/site/locales.ts';
import { searchIndexUrl } from '../../src/site/urls.ts';
import { llmsFullUrl } from '../../src/site/urls.ts';
import { notFoundMarkdownPath } from '../../integrations/surface/write.ts';
import { starlightDir } from '../starlight/convert.ts';

// Output sizes of a built dist: Crucible's twins, llms-full.txt and per-locale search JSON;
// Starlight's llms-full.txt and Pagefind bundle per language.

interface Compressed {
  raw: number;
  brotli: number;
}

export interface CrucibleSizes {
  distBytes: number;
  distFiles: number;
  twins: { count: number; bytes: number };
  /** `/llms-full.txt` (English) and the sum over every locale's llms-full.txt. */
  llmsFull: { en: number; allLocales: number };
  search: Partial<Record<Locale, Compressed>>;
}

export interface StarlightSizes {
  distBytes: number;
  distFiles: number;
  /** starlight-llms-txt writes the default locale only. */
  llmsFull: { en: number };
  /** Pagefind's files for one language (meta, index chunks, fragments; served as stored, already gzip-compressed). */
  pagefind: Partial<Record<Locale, number>>;
  /** Pagefind's shared files (JS, CSS, wasm), raw and brotli. */
  pagefindShared: Compressed;
}

async function filesOf(dir: string): Promise<Array<{ path: string; bytes: number }>> {
  const out: Array<{ path: string; bytes: number }> = [];
  for (const dirent of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!dirent.isFile()) continue;
    const full = join(dirent.parentPath, dirent.name);
    out.push({ path: relative(dir, full).split(sep).join('/'), bytes: (await stat(full)).size });
  }
  return out;
}

export function brotliSize(data: Buffer): number {
  return brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength } }).byteLength;
}

const sizeOf = async (path: string) => (existsSync(path) ? (await stat(path)).size : 0);

export async function crucibleSizes(distDir: string, locales: Locale[]): Promise<CrucibleSizes> {
  const files = (await filesOf(distDir)).filter((f) => !/\.(br|gz)$/.test(f.path));
  const twins = files.filter((f) => f.path.endsWith('.md') && `/${f.path}` !== notFoundMarkdownPath);
  const search: CrucibleSizes['search'] = {};
  let allLocales = 0;
  for (const locale of locales) {
    const json = await readFile(join(distDir, searchIndexUrl(locale)));
    search[locale] = { raw: json.byteLength, brotli: brotliSize(json) };
    allLocales += await sizeOf(join(distDir, llmsFullUrl(locale)));
  }
  return {
    distBytes: files.reduce((s, f) => s + f.bytes, 0),
    distFiles: files.length,
    twins: { count: twins.length, bytes: twins.reduce((s, f) => s + f.bytes, 0) },
    llmsFull: { en: await sizeOf(join(distDir, 'llms-full.txt')), allLocales },
    search,
  };
}

export async function starlightSizes(distDir: string, locales: Locale[]): Promise<StarlightSizes> {
  const files = await filesOf(distDir);
  const pagefindFiles = files.filter((f) => f.path.startsWith('pagefind/'));
  const pagefind: StarlightSizes['pagefind'] = {};
  for (const locale of locales) {
    const lang = starlightDir(locale) || 'en';
    const ofLanguage = (name: string) => name.startsWith(`${lang}_`) || name.startsWith(`pagefind.${lang}_`);
    pagefind[locale] = pagefindFiles.filter((f) => ofLanguage(f.path.split('/').pop()!)).reduce((s, f) => s + f.bytes, 0);
  }
  let shared: Compressed = { raw: 0, brotli: 0 };
  for (const f of pagefindFiles.filter((f) => /^pagefind\/[^/]+\.(js|css|pagefind)$/.test(f.path))) {
    const data = await readFile(join(distDir, f.path));
    // wasm.*.pagefind files are gzip-compressed already and served as they are.
    shared = { raw: shared.raw + data.byteLength, brotli: shared.brotli + (f.path.endsWith('.pagefind') ? data.byteLength : brotliSize(data)) };
  }
  return {
    distBytes: files.reduce((s, f) => s + f.bytes, 0),
    distFiles: files.length,
    llmsFull: { en: await sizeOf(join(distDir, 'llms-full.txt')) },
    pagefind,
    pagefindShared: shared,
  };
}
