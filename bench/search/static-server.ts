import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

// One static server for both built sites, so the bytes they send are compared on equal terms:
// brotli for text (quality 11 up to 1 MiB, 9 above: what src/server/precompress.ts wrote when
// BENCHMARKS.md's search figures were measured; it writes 10 and 5 now), files Pagefind compresses itself (index chunks,
// fragments, wasm) as they are. Crucible's `/api/search/<locale>` is extensionless JSON.
// Paths resolve as both sites are built: `/x` -> x.html (Crucible), `/x/` -> x/index.html.

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.wasm': 'application/wasm',
};
const compressible = /^(text\/|application\/(json|xml|javascript)|image\/svg)/;

/** One response as sent: path, bytes on the wire (body as encoded, plus headers), when the request arrived and the response was sent (epoch ms). */
export interface Served {
  path: string;
  bytes: number;
  at: number;
  doneAt: number;
}

export interface StaticSite {
  origin: string;
  /** Every response since the last reset, for counting bytes on the server side (browsers under-report worker fetches). */
  served: Served[];
  reset(): void;
  stop(): Promise<void>;
}

function fileFor(distDir: string, pathname: string): string | null {
  const path = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
  const candidates = path.endsWith('/') ? [join(path, 'index.html')] : [path, `${path}.html`, join(path, 'index.html')];
  for (const candidate of candidates) {
    const file = join(distDir, candidate);
    if (file.startsWith(distDir) && existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

function typeOf(pathname: string, file: string): string {
  if (pathname.startsWith('/api/search/')) return types['.json']!;
  return types[extname(file)] ?? 'application/octet-stream';
}

/** Status line and headers as written on the wire (Node adds Date, Connection and Keep-Alive). */
function headerBytes(status: number, headers: Record<string, string>): number {
  const lines = [
    `HTTP/1.1 ${status} OK`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    'Date: Thu, 01 Jan 2026 00:00:00 GMT',
    'Connection: keep-alive',
    'Keep-Alive: timeout=5',
  ];
  return Buffer.byteLength(`${lines.join('\r\n')}\r\n\r\n`);
}

export async function startStaticSite(distDir: string): Promise<StaticSite> {
  const brotliCache = new Map<string, Buffer>();
  let served: Served[] = [];
  const server: Server = createServer(async (req, res) => {
    const at = Date.now();
    const { pathname } = new URL(req.url ?? '/', 'http://bench');
    const send = (status: number, headers: Record<string, string>, body: Buffer) => {
      const all = { ...headers, 'content-length': String(body.byteLength) };
      const entry: Served = { path: pathname, bytes: body.byteLength + headerBytes(status, all), at, doneAt: at };
      served.push(entry);
      res.on('finish', () => (entry.doneAt = Date.now()));
      res.writeHead(status, all).end(body);
    };
    const file = fileFor(distDir, pathname);
    if (!file) return send(404, { 'content-type': 'text/plain' }, Buffer.from('not found'));
    const type = typeOf(pathname, file);
    const body = await readFile(file);
    const headers: Record<string, string> = { 'content-type': type, 'cache-control': 'no-cache' };
    if (compressible.test(type) && /\bbr\b/.test(String(req.headers['accept-encoding'] ?? '')) && body.byteLength >= 512) {
      let br = brotliCache.get(file);
      if (!br) {
        const quality = body.byteLength <= 1024 * 1024 ? constants.BROTLI_MAX_QUALITY : 9;
        br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } });
        brotliCache.set(file, br);
      }
      return send(200, { ...headers, 'content-encoding': 'br', vary: 'accept-encoding' }, br);
    }
    send(200, headers, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get served() {
      return served;
    },
    reset: () => {
      served = [];
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
