import { request } from 'node:http';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { safeFetch } from '../../src/nfts/safe-fetch.ts';
import { writeFixtureDist, type FixtureDist } from '../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../support/site.ts';

// App keys never reach the request log: the production server (`node src/server/main.ts`) with
// REQUEST_LOG=on, asked for paths under `/v2/<key>/`, `/nft/v3/<key>/` and `/prices/v1/<key>/` that
// nothing serves, in the `/node/<network>/…` form and on `<network>.<NODE_DOMAIN>`, and in odd
// spellings (percent-encoded, doubled slashes, malformed), logs each with the key replaced by
// `<key>`. What it writes to stdout is read back line by line.

const KEY = 'SeCrEtKeY0123456789abcdef';
const NODE_DOMAIN = 'node.test';

let fixture: FixtureDist;
let server: BuiltSite;

beforeAll(async () => {
  fixture = await writeFixtureDist();
  // Two of the local world's hosted documents, as the build copies them from public/world/nft/.
  await mkdir(join(fixture.distDir, 'world/nft/relics'), { recursive: true });
  for (const id of [1, 2]) await writeFile(join(fixture.distDir, `world/nft/relics/${id}.json`), JSON.stringify({ name: `Relic #${id}` }));
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: { REQUEST_LOG: 'on', NODE_DOMAIN, PRICES_IN_SERVER: 'off' },
  });
});

afterAll(async () => {
  await server?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

/** One GET with the request target and Host exactly as given (fetch would normalize them); resolves with the status. */
function get(target: string, host?: string): Promise<number> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, path: target, method: 'GET', headers: host ? { host } : {} }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    sent.once('error', reject);
    sent.end();
  });
}

interface RequestLine {
  msg: string;
  path: string;
  status: number;
}

const requestLines = (of: BuiltSite = server) =>
  of
    .logLines()
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as RequestLine)
    .filter((line) => line.msg === 'request');

describe('request log lines never carry an app key', () => {
  // [request target, Host (none: the site's own), the path the log line shows]
  const cases: Array<[string, string | undefined, string]> = [
    [`/node/ethereum-sepolia/v2/${KEY}/no-such-endpoint`, undefined, '/node/ethereum-sepolia/v2/<key>/no-such-endpoint'],
    [`/node/ethereum-sepolia/nft/v3/${KEY}/noSuchEndpoint/more`, undefined, '/node/ethereum-sepolia/nft/v3/<key>/noSuchEndpoint/more'],
    [`/prices/v1/${KEY}/no/such/path`, undefined, '/prices/v1/<key>/no/such/path'],
    [`/v2/${KEY}/no-such-endpoint`, `ethereum-sepolia.${NODE_DOMAIN}`, '/v2/<key>/no-such-endpoint'],
    [`/nft/v3/${KEY}/noSuchEndpoint`, `ethereum-sepolia.${NODE_DOMAIN}`, '/nft/v3/<key>/noSuchEndpoint'],
    // Odd spellings: a percent-encoded prefix or key, doubled slashes, an encoded slash, bad percent-encoding.
    [`/node/ethereum-sepolia/%76%32/${KEY}/x`, undefined, '/node/ethereum-sepolia/%76%32/<key>/x'],
    [`/%70rices/v1/${KEY}/tokens/by-symbol`, undefined, '/%70rices/v1/<key>/tokens/by-symbol'],
    [`/node/ethereum-sepolia/v2/%${Buffer.from(KEY).toString('hex').match(/../g)!.join('%')}/x`, undefined, '/node/ethereum-sepolia/v2/<key>/x'],
    [`/node/ethereum-sepolia/v2//${KEY}/x`, undefined, '/node/ethereum-sepolia/v2//<key>/x'],
    [`//v2/${KEY}/x`, `ethereum-sepolia.${NODE_DOMAIN}`, '//v2/<key>/x'],
    [`/node/ethereum-sepolia/v2%2F${KEY}`, undefined, '/node/ethereum-sepolia/v2%2F<key>'],
    [`/prices/v1/${KEY}/%zz`, undefined, '/prices/v1/<key>/%zz'],
  ];

  it('for an unknown path under each prefix, in either form of {node_url} and in odd spellings', async () => {
    const before = requestLines().length;
    for (const [target, host] of cases) expect(await get(target, host)).toBeGreaterThanOrEqual(400);
    await vi.waitFor(() => expect(requestLines().length - before).toBe(cases.length), { timeout: 10_000, interval: 50 });
    const logged = requestLines().slice(before);
    expect(logged.map((line) => line.path).sort()).toEqual(cases.map(([, , path]) => path).sort());
    expect(server.logLines().join('\n')).not.toContain(KEY);
  });
});

describe("the platform's own fetches of the local world's documents", () => {
  // The NFT fetcher (src/nfts/safe-fetch.ts) reads every hosted token's document and image from the
  // site itself: hundreds of lines at start that say nothing about the site's clients.
  const fetchAsPlatform = (site: BuiltSite, path: string) =>
    safeFetch(new URL(path, site.origin), { timeoutMs: 10_000, maxBytes: 1 << 20, blockedAddresses: null, siteOrigin: site.origin });
  const pathsLogged = (site: BuiltSite) => requestLines(site).map((line) => line.path);

  it('are left out of the request log by default; a client asking for the same documents is logged', async () => {
    const fetched = await fetchAsPlatform(server, '/world/nft/relics/1.json');
    expect(fetched.ok && JSON.parse(Buffer.from(fetched.bytes).toString('utf8'))).toEqual({ name: 'Relic #1' });
    // Asked after the platform's fetch was answered: once its line is written, the fetch's would have been.
    expect(await get('/world/nft/relics/2.json')).toBe(200);
    await vi.waitFor(() => expect(pathsLogged(server)).toContain('/world/nft/relics/2.json'), { timeout: 10_000, interval: 50 });
    expect(pathsLogged(server)).not.toContain('/world/nft/relics/1.json');
  });

  it('are logged with REQUEST_LOG=all', async () => {
    const everything = await startBuiltSite({ distDir: fixture.distDir, env: { REQUEST_LOG: 'all', PRICES_IN_SERVER: 'off' } });
    try {
      expect((await fetchAsPlatform(everything, '/world/nft/relics/1.json')).ok).toBe(true);
      await vi.waitFor(() => expect(pathsLogged(everything)).toContain('/world/nft/relics/1.json'), { timeout: 10_000, interval: 50 });
    } finally {
      await everything.stop();
    }
  });
});
