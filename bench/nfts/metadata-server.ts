import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// The hosted metadata of the NFT benchmark's collections, as a project's own web server would host
// it: collection c's token t has its document at /c<c>/<t>.json (what `baseURI + id + ".json"`
// gives) and its image beside it at /c<c>/<t>.svg, named relatively in the document as the local
// world's are. A collection whose tokens share one document (the airdrop shape) has it at
// /c<c>/pass.json, its image at /c<c>/pass.svg. Every request is counted, so a run can show that a
// warm cache fetched nothing.

export interface MetadataServer {
  /** The base URI of collection `c`, ending in `/`. */
  baseUri(collection: number): string;
  /** Documents and images served so far. */
  served(): { documents: number; images: number };
  stop(): Promise<void>;
}

/** The name a token's document gives it, which the benchmark checks answers against. */
export function benchTokenName(collection: number, tokenId: string): string {
  return `Bench ${collection} #${tokenId}`;
}

const PALETTE = ['b45309', '0f766e', '7c3aed', 'be123c', '1d4ed8'];

function documentOf(collection: number, tokenId: string): string {
  return JSON.stringify({
    name: benchTokenName(collection, tokenId),
    description: `Token ${tokenId} of benchmark collection ${collection}, hosted over HTTP.`,
    image: `${tokenId}.svg`,
    attributes: [
      { trait_type: 'Collection', value: collection },
      { trait_type: 'Colour', value: PALETTE[Number(tokenId) % PALETTE.length] },
    ],
  });
}

/** The one document every token of a shared-document collection gives. */
export function benchPassName(collection: number): string {
  return `Bench ${collection} pass`;
}

function passDocumentOf(collection: number): string {
  return JSON.stringify({ name: benchPassName(collection), description: `Every token of benchmark collection ${collection}.`, image: 'pass.svg' });
}

function imageOf(collection: number, tokenId: string): string {
  const fill = PALETTE[(collection + Number(tokenId)) % PALETTE.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#${fill}"/><text x="32" y="40" font-family="monospace" font-size="14" text-anchor="middle" fill="#fff">${collection}/${tokenId}</text></svg>`;
}

export async function startMetadataServer(): Promise<MetadataServer> {
  const counts = { documents: 0, images: 0 };
  const server = createServer((req, res) => {
    const match = /^\/c(\d+)\/(\d+|pass)\.(json|svg)$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !match) {
      res.writeHead(404).end();
      return;
    }
    const [collection, tokenId, extension] = [Number(match[1]), match[2]!, match[3]];
    const shared = tokenId === 'pass';
    const body = extension === 'json' ? (shared ? passDocumentOf(collection) : documentOf(collection, tokenId)) : imageOf(collection, shared ? '0' : tokenId);
    if (extension === 'json') counts.documents++;
    else counts.images++;
    res.writeHead(200, { 'content-type': extension === 'json' ? 'application/json' : 'image/svg+xml', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUri: (collection) => `http://127.0.0.1:${port}/c${collection}/`,
    served: () => ({ ...counts }),
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
