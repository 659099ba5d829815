import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

// The local world's hosted metadata and images (public/world/nft/) over HTTP on 127.0.0.1, as the
// site serves them at /world/nft/, and again under /ipfs/<WORLD_CID>/ as an IPFS gateway would
// serve a folder of them.

export const WORLD_CID = 'QmCrucibleWorldNftFolder';
const FOLDER = join(process.cwd(), 'public/world/nft');
const TYPES: Record<string, string> = { json: 'application/json', svg: 'image/svg+xml' };

export async function serveWorldFiles() {
  const seen: string[] = [];
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    seen.push(path);
    const relative = /^\/world\/nft\/(.+)$/.exec(path)?.[1] ?? new RegExp(`^/ipfs/${WORLD_CID}/(.+)$`).exec(path)?.[1];
    const file = relative && normalize(join(FOLDER, decodeURIComponent(relative)));
    const body = file?.startsWith(`${FOLDER}/`) ? await readFile(file).catch(() => null) : null;
    if (!body) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': TYPES[file!.split('.').pop()!] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    /** The file's bytes as the server sends them. */
    file: (relative: string) => readFile(join(FOLDER, relative)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
