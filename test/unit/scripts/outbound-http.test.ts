import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';

// Nothing outside src/net/ opens outbound HTTP by itself (src/net/README.md): every request goes
// through its deadline, size cap and address guard. dependency-cruiser forbids importing undici,
// node:https, node:http2 and node:tls elsewhere (.dependency-cruiser.mjs: outbound-http-through-net);
// node:http and node:net are imported for servers, types, status texts and address checks, which a
// module-level rule cannot tell from their clients, so this test reads the sources for the client
// parts of them, and for calls of the global fetch. Browser code (src/components/, src/search/)
// fetches the site's own API with the browser's fetch, and is not read.

const ROOT = join(import.meta.dirname, '../../..');

/** What a module may import, as values, from the node modules that also hold clients. */
const SERVER_SIDE: Readonly<Record<string, ReadonlySet<string>>> = {
  http: new Set(['createServer', 'STATUS_CODES']),
  net: new Set(['isIP', 'isIPv4', 'isIPv6', 'BlockList']),
};
/** Modules that are clients through and through. */
const CLIENTS = new Set(['https', 'http2', 'tls', 'undici']);

/** The outbound HTTP a module's source opens by itself: one line per finding. */
function outboundUses(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/import\s+(type\s+)?([^'";]*?)\s+from\s+['"](?:node:)?(https?|http2|net|tls|undici)['"]/g)) {
    const [, typeOnly, clause = '', module = ''] = match;
    if (typeOnly) continue;
    if (CLIENTS.has(module)) {
      found.push(`imports ${module}`);
      continue;
    }
    const named = /^\{([^}]*)\}$/.exec(clause.trim());
    if (!named) {
      found.push(`imports all of ${module}`);
      continue;
    }
    for (const part of named[1]!.split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0]!;
      if (name && !name.startsWith('type ') && !SERVER_SIDE[module]!.has(name)) found.push(`imports ${name} from ${module}`);
    }
  }
  for (const match of source.matchAll(/import\(\s*['"](?:node:)?(https?|http2|net|tls|undici)['"]/g)) found.push(`imports ${match[1]} at run time`);
  const code = withoutComments(source);
  if (/(?<![\w.$])fetch\s*\(/.test(code) || /\bglobalThis\.fetch\b/.test(code)) found.push('calls fetch');
  return found;
}

/** The source without its comments (prose says "the fetch (...)"); `//` after a colon is a URL's. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('outbound HTTP goes through src/net/', () => {
  it('finds the client parts of node:http and node:net, the client modules, and the global fetch', () => {
    expect(outboundUses("import { request } from 'node:http';")).toEqual(['imports request from http']);
    expect(outboundUses("import { createServer, get as httpGet, type Server } from 'node:http';")).toEqual(['imports get from http']);
    expect(outboundUses("import * as http from 'http';")).toEqual(['imports all of http']);
    expect(outboundUses("import { isIP, connect } from 'node:net';")).toEqual(['imports connect from net']);
    expect(outboundUses("import { connect } from 'node:tls';\nimport { request } from 'undici';")).toEqual(['imports tls', 'imports undici']);
    expect(outboundUses("const { request } = await import('node:https');")).toEqual(['imports https at run time']);
    expect(outboundUses('const answer = await fetch(url, { method: "POST" });')).toEqual(['calls fetch']);
    expect(outboundUses('const fetchOnce = options.fetch ?? globalThis.fetch;')).toEqual(['calls fetch']);
  });

  it('leaves servers, types, address checks and methods named fetch alone', () => {
    expect(outboundUses("import { createServer, STATUS_CODES, type IncomingMessage } from 'node:http';")).toEqual([]);
    expect(outboundUses("import type { Socket } from 'node:net';\nimport { BlockList, isIP } from 'node:net';")).toEqual([]);
    expect(outboundUses('const value = await cache.fetch(key); // the fetch (of a token)\n/* fetch (x) */')).toEqual([]);
  });

  it('holds for every server-side module outside src/net/', async () => {
    const files = await glob('src/**/*.{ts,astro}', { cwd: ROOT, ignore: ['src/net/**', 'src/components/**', 'src/search/**'] });
    expect(files.length).toBeGreaterThan(100);
    const findings: string[] = [];
    for (const file of files) {
      for (const use of outboundUses(await readFile(join(ROOT, file), 'utf8'))) findings.push(`${file} ${use}`);
    }
    expect(findings).toEqual([]);
  });
});
