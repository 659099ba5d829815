import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Router } from '../../../../src/api/router.ts';
import type { Database } from '../../../../src/db/open.ts';
import { createMediaRoute, SVG_CONTENT_SECURITY_POLICY } from '../../../../src/nfts/media/media-route.ts';
import { sha256Hex, storeImageOutcome } from '../../../../src/nfts/media/media-table.ts';
import { renderImage } from '../../../../src/nfts/media/render.ts';
import { createServerLogger } from '../../../../src/server/log.ts';
import { createSiteServer, listen } from '../../../../src/server/server.ts';
import { openStaticSite } from '../../../../src/server/static-site.ts';
import { loadSurfaceRules } from '../../../../src/server/surface-rules.ts';
import { writeFixtureDist, type FixtureDist } from '../../../support/fixture-dist.ts';
import { databaseEngines } from '../../../support/postgres.ts';

// Stored images served by the production server at /nft-media/<sha256>[/thumbnail|/png] from the
// database, on both engines: the bytes as stored, cached for good, SVG under its CSP.

const noApi: Router = {
  handle: () => {
    throw new Error('the API is not part of this test');
  },
};

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><script>alert(1)</script><rect width="40" height="20" fill="#b45309"/></svg>',
);

let fixture: FixtureDist;
beforeAll(async () => {
  fixture = await writeFixtureDist();
});
afterAll(async () => {
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe.each(databaseEngines())('/nft-media/ on $name', (engine) => {
  let database: Database;
  let server: Server;
  let url: string;
  let webp: Buffer;

  beforeAll(async () => {
    database = await engine.open();
    webp = await sharp({ create: { width: 300, height: 600, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 0.5 } } })
      .webp()
      .toBuffer();
    for (const [source, bytes] of [
      ['https://example.com/a.svg', SVG],
      ['https://example.com/b', webp],
    ] as const) {
      const rendered = await renderImage(bytes);
      if (!rendered.ok) throw new Error(rendered.error.reason);
      await storeImageOutcome(database.db, source, { original: bytes, rendered }, 1);
    }
    const rules = await loadSurfaceRules(fixture.distDir);
    server = createSiteServer({
      site: await openStaticSite(fixture.distDir, rules),
      router: noApi,
      origin: rules.site,
      trustProxy: { mode: 'none' },
      logger: createServerLogger({ requests: false }),
      media: createMediaRoute(database.db),
    });
    url = (await listen(server, 0, '127.0.0.1')).replace(/\/$/, '');
  });

  afterAll(async () => {
    if (server) {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    }
    await database?.close();
  });

  it('serves an SVG original byte for byte, immutable, under the sandboxing CSP', async () => {
    const response = await fetch(`${url}/nft-media/${sha256Hex(SVG)}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(SVG);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'image/svg+xml',
      'content-length': String(SVG.length),
      etag: `"${sha256Hex(SVG)}"`,
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': SVG_CONTENT_SECURITY_POLICY,
    });
  });

  it('serves a raster original with its measured type and no CSP; HEAD and If-None-Match', async () => {
    const response = await fetch(`${url}/nft-media/${sha256Hex(webp)}`);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('content-security-policy')).toBeNull();
    expect(Buffer.from(await response.arrayBuffer())).toEqual(webp);
    const head = await fetch(`${url}/nft-media/${sha256Hex(webp)}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, String(webp.length), 0]);
    const cached = await fetch(`${url}/nft-media/${sha256Hex(webp)}`, { headers: { 'if-none-match': `"${sha256Hex(webp)}"` } });
    expect(cached.status).toBe(304);
  });

  it('serves the thumbnail (at most 256 px) and the PNG of each', async () => {
    for (const [bytes, size] of [
      [webp, [128, 256]],
      [SVG, [256, 128]],
    ] as const) {
      const thumbnail = await fetch(`${url}/nft-media/${sha256Hex(bytes)}/thumbnail`);
      expect(thumbnail.headers.get('etag')).toBe(`"${sha256Hex(bytes)}-thumbnail"`);
      const meta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
      expect([thumbnail.headers.get('content-type'), meta.width, meta.height]).toEqual([`image/${meta.format}`, ...size]);
      const png = await fetch(`${url}/nft-media/${sha256Hex(bytes)}/png`);
      expect(png.headers.get('content-type')).toBe('image/png');
      expect((await sharp(Buffer.from(await png.arrayBuffer())).metadata()).format).toBe('png');
    }
  });

  it('answers 404 for an unknown hash or rendering, 405 for other methods', async () => {
    expect((await fetch(`${url}/nft-media/${'a'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${url}/nft-media/${sha256Hex(SVG)}/gif`)).status).toBe(404);
    expect((await fetch(`${url}/nft-media/${sha256Hex(SVG).toUpperCase()}`)).status).toBe(404);
    const post = await fetch(`${url}/nft-media/${sha256Hex(SVG)}`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});
