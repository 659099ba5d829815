import { extname } from 'node:path';
import { jsonType, markdownType, plainTextType, xmlType } from '../http/media.ts';

// Content types by file extension, for files the rules manifest does not type.

const byExtension: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.md': markdownType,
  '.txt': plainTextType,
  '.xml': xmlType,
  '.json': jsonType,
  '.webmanifest': 'application/manifest+json',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': jsonType,
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
};

export function contentTypeByExtension(path: string): string {
  return byExtension[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** Worth storing precompressed: text formats, and SVG/wasm which compress well. */
export function isCompressible(contentType: string): boolean {
  return /^(?:text\/|application\/(?:json|xml|javascript|manifest\+json|wasm)|image\/svg\+xml)/.test(contentType);
}
