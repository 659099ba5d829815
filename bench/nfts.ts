import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAppKeySecret } from '../src/apps/key-secret.ts';
import { createAppStore } from '../src/apps/store.ts';
import { openDatabase } from '../src/db/open.ts';
import { randomAddress, startTestAnvil } from '../test/support/anvil.ts';
import { writeFixtureDist } from '../test/support/fixture-dist.ts';
import { startBuiltSite } from '../test/support/site.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { type ClientJob, type ClientResult, type NaiveToken, runClient } from './nfts/clients.ts';
import { fillNfts } from './nfts/fill.ts';
import { benchTokenName, startMetadataServer } from './nfts/metadata-server.ts';
import { quantile } from './quantile.ts';
import { readOwnerPages } from './nfts/pages.ts';
import { serverTimes } from './nfts/collection-pages.ts';

// `npm run bench:nfts [-- --quick] [--collections <n>] [--per-collection <n>] [--seconds <n>] [--rounds <n>] [--connections <n>] [--no-wait] [--no-write]`:
// getNFTs for one owner of 1,000 NFTs across 20 ERC-721 collections (50 each), page size 100, at 32
// connections, with a warm metadata cache. A fresh anvil gets the collections (the world's
// RelicCollection artifact) whose metadata and SVG images a local HTTP server hosts; the production
// server (`node src/server/main.ts` over a fixture build, NODE_UPSTREAMS_<ID> at the anvil, an app key
// with 1,000,000 CU/s) indexes the chain with its own transfer indexer on a SQLite file, and one pass
// of getNFTs over every page fetches every document and image into its metadata store and every
// contract's facts into its cache. Then, in rotating rounds: getNFTs with metadata, getNFTs with
// withMetadata=false, and the naive baseline (bench/nfts/clients.ts) reading the same pages with
// ownerOf + tokenURI eth_calls through the same gateway and the documents from the metadata server.
// A full run writes the `## NFTs: getNFTs` section of BENCHMARKS.md; --quick (200 NFTs across 4
// collections, one short round) writes nothing.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    collections: { type: 'string' },
    'per-collection': { type: 'string' },
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '32' },
    'no-wait': { type: 'boolean' },
    'no-write': { type: 'boolean' },
  },
});
const quick = args.quick ?? false;
const shape = { collections: Number(args.collections ?? (quick ? 4 : 20)), perCollection: Number(args['per-collection'] ?? 50) };
const seconds = Number(args.seconds ?? (quick ? 3 : 10));
const rounds = Number(args.rounds ?? (quick ? 1 : 3));
const connections = Number(args.connections);
const warmUpSeconds = quick ? 1 : 3;
const PAGE_SIZE = 100;
const NETWORK = 'base-sepolia';
const CHAIN_ID = 84532;
const QUIET_LOAD = 1.5;

const sideNames = ['withMetadata', 'withoutMetadata', 'naive'] as const;
type SideName = (typeof sideNames)[number];
const label: Record<SideName, string> = {
  withMetadata: '`getNFTs`, metadata included (one request a page)',
  withoutMetadata: '`getNFTs?withMetadata=false` (one request a page)',
  naive: `naive: \`ownerOf\` + \`tokenURI\` eth_calls through the gateway and the document from the metadata server, per token (${3 * PAGE_SIZE} requests a page)`,
};

/** The server's request-log path of each getNFTs side: the side without metadata asks the same endpoint under its other prefix, so their lines tell apart. */
const loggedPath: Partial<Record<SideName, RegExp>> = { withMetadata: /\/v2\/<key>\/getNFTs$/, withoutMetadata: /\/nft\/v3\/<key>\/getNFTs$/ };

const total = shape.collections * shape.perCollection;
const log = (line: string) => console.log(line);
const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-nfts-'));
const fixture = await writeFixtureDist();
// Automine: the chain holds still while it is measured.
const anvil = await startTestAnvil({ chainId: CHAIN_ID });
const metadataServer = await startMetadataServer();
let server: Awaited<ReturnType<typeof startBuiltSite>> | undefined;
const results = Object.fromEntries(sideNames.map((name) => [name, [] as ClientResult[]])) as Record<SideName, ClientResult[]>;
const serverMs = Object.fromEntries(sideNames.map((name) => [name, [] as number[]])) as Record<SideName, number[]>;
let loadBefore = 0;
let loadAfter = 0;
let warmSeconds = 0;
let pageBytes = { withMetadata: 0, withoutMetadata: 0 };
let fetchedWhileMeasured = { documents: 0, images: 0 };
try {
  const owner = randomAddress();
  log(`deploying ${shape.collections} collections and minting ${shape.perCollection} of each to ${owner}`);
  const contracts = await fillNfts(anvil, owner, shape, metadataServer.baseUri);
  const head = Number(await anvil.client.getBlockNumber());

  const databasePath = join(scratch, 'crucible.sqlite');
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: [NETWORK],
  });
  // The highest rate an app may have, and a monthly quota that is counted but never reached.
  const { key } = await apps.create({ name: 'NFT benchmark', computeUnitsPerSecond: 1_000_000, monthlyComputeUnitQuota: Number.MAX_SAFE_INTEGER });
  await database.close();
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: {
      DATABASE_PATH: databasePath,
      [`NODE_UPSTREAMS_${NETWORK.toUpperCase().replaceAll('-', '_')}`]: anvil.rpcUrl,
      // One line per request: the server's own time of each answer (from its arrival to its last byte handed to the socket).
      REQUEST_LOG: 'on',
      // The server's own indexer fills the index (production's default; startBuiltSite turns it off).
      INDEXER_IN_SERVER: 'on',
      // The metadata server is on loopback, which production refuses by default.
      NFT_FETCH_PRIVATE: 'allow',
    },
  });
  const base = `/node/${NETWORK}/v2/${key}/getNFTs?owner=${owner}&pageSize=${PAGE_SIZE}`;
  const pages = await readOwnerPages({ origin: server.origin, base, total, head, log });
  warmSeconds = pages.warmSeconds;
  // The naive client reads the same tokens page by page, and checks each document's name.
  const naivePages: NaiveToken[][] = pages.tokens.map((page) =>
    page.map((token) => ({
      ...token,
      name: benchTokenName(
        contracts.findIndex((address) => address.toLowerCase() === token.contract.toLowerCase()),
        token.tokenId,
      ),
    })),
  );

  // How large the answers are: what every page costs to move to its client.
  const sizeOf = async (path: string) => (await (await fetch(`${server!.origin}${path}`)).arrayBuffer()).byteLength;
  pageBytes = { withMetadata: await sizeOf(pages.paths[0]!), withoutMetadata: await sizeOf(`${pages.paths[0]!}&withMetadata=false`) };
  const common = { connections, seconds, warmUpSeconds };
  const jobs: Record<SideName, ClientJob> = {
    withMetadata: { ...common, kind: 'api', origin: server.origin, paths: pages.paths },
    withoutMetadata: {
      ...common,
      kind: 'api',
      origin: server.origin,
      paths: pages.paths.map((path) => `${path.replace(`/v2/${key}/`, `/nft/v3/${key}/`)}&withMetadata=false`),
    },
    naive: { ...common, kind: 'naive', rpcUrl: `${server.origin}/node/${NETWORK}/v2/${key}`, owner, pages: naivePages },
  };
  loadBefore = args['no-wait'] ? await loadAverage() : await waitForQuietMachine(log, QUIET_LOAD, 60);
  log(
    `1-minute load ${loadBefore.toFixed(2)}: ${rounds} rounds of ${seconds} s per side (after ${warmUpSeconds} s of warm-up each) at ${connections} connections`,
  );
  for (let round = 0; round < rounds; round++) {
    // Each round starts with the next side, so none always follows the same one.
    for (let k = 0; k < sideNames.length; k++) {
      const name = sideNames[(round + k) % sideNames.length]!;
      const servedBeforeSide = metadataServer.served();
      const linesBefore = server.logLines().length;
      const result = await runClient(jobs[name]);
      const path = loggedPath[name];
      if (path) serverMs[name].push(...serverTimes(server.logLines().slice(linesBefore), path));
      if (name !== 'naive') {
        const served = metadataServer.served();
        fetchedWhileMeasured = {
          documents: fetchedWhileMeasured.documents + served.documents - servedBeforeSide.documents,
          images: fetchedWhileMeasured.images + served.images - servedBeforeSide.images,
        };
      }
      results[name].push(result);
      const inRound = figuresOf([result], []);
      log(
        `round ${round + 1} ${name.padEnd(15)} ${inRound.pagesPerSecond.toFixed(1).padStart(7)} pages/s, p50 ${inRound.p50.toFixed(1)} ms, p99 ${inRound.p99.toFixed(1)} ms` +
          (result.failures ? ` | ${result.failures} failed: ${result.firstFailure}` : ''),
      );
    }
  }
  loadAfter = await loadAverage();
} finally {
  await server?.stop();
  await metadataServer.stop();
  await anvil.stop();
  await rm(fixture.root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}

interface Figures {
  pagesPerSecond: number;
  p50: number;
  p99: number;
  pages: number;
  failures: number;
  firstFailure: string | null;
  serverP50: number | null;
  serverP99: number | null;
}

/** Over every page of the rounds: pages/s over their time together, p50 and p99 of the pages' times; the server's own p50 and p99. */
function figuresOf(side: ClientResult[], server: number[]): Figures {
  const times = side.flatMap((result) => result.times);
  const seconds = side.reduce((sum, result) => sum + result.seconds, 0);
  return {
    pagesPerSecond: times.length / seconds,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    pages: times.length,
    failures: side.reduce((sum, result) => sum + result.failures, 0),
    firstFailure: side.find((result) => result.firstFailure)?.firstFailure ?? null,
    serverP50: server.length ? quantile(server, 0.5) : null,
    serverP99: server.length ? quantile(server, 0.99) : null,
  };
}

const figures = Object.fromEntries(sideNames.map((name) => [name, figuresOf(results[name], serverMs[name])])) as Record<SideName, Figures>;
const naive = figures.naive;
const times = (name: SideName) =>
  name === 'naive'
    ? ''
    : `${(naive.p50 / figures[name].p50).toFixed(1)}× / ${(naive.p99 / figures[name].p99).toFixed(1)}× / ${(figures[name].pagesPerSecond / naive.pagesPerSecond).toFixed(1)}×`;
const table = [
  `| ${connections} connections, pages of ${PAGE_SIZE} | pages/s (req/s for getNFTs) | p50 (ms) | p99 (ms) | server's own p50 / p99 (ms) | pages timed | failed | faster than naive: p50 / p99 / pages/s |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...sideNames.map((name) => {
    const f = figures[name];
    const own = f.serverP50 === null ? '' : `${f.serverP50.toFixed(1)} / ${f.serverP99!.toFixed(1)}`;
    return `| ${label[name]} | ${f.pagesPerSecond.toFixed(1)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${own} | ${f.pages} | ${f.failures} | ${times(name)} |`;
  }),
].join('\n');
const fetched = `Metadata server requests while getNFTs was measured: ${fetchedWhileMeasured.documents} documents, ${fetchedWhileMeasured.images} images (a warm cache fetches none). A page of ${PAGE_SIZE} is ${(pageBytes.withMetadata / 1024).toFixed(0)} KB of JSON with metadata, ${(pageBytes.withoutMetadata / 1024).toFixed(1)} KB without.`;
log(`\n${table}\n\n${fetched}\n`);

const cpu = await cpuModel();
const out = join(import.meta.dirname, 'out');
await mkdir(out, { recursive: true });
await writeFile(
  join(out, 'nfts.json'),
  `${JSON.stringify({ shape, total, connections, seconds, rounds, cpu, loadBefore, loadAfter, warmSeconds, pageBytes, figures, fetchedWhileMeasured }, null, 2)}\n`,
);
const failed = sideNames.filter((name) => figures[name].failures > 0).map((name) => `${name} ${figures[name].failures} (first: ${figures[name].firstFailure})`);
if (!quick && !args['no-write']) {
  await writeBenchmarksSection(
    'NFTs: getNFTs',
    [
      '## NFTs: getNFTs',
      '',
      `\`getNFTs\` for one owner of ${total.toLocaleString('en')} NFTs across ${shape.collections} ERC-721 collections (${shape.perCollection} each), page size ${PAGE_SIZE}, at ${connections} connections with a warm metadata cache, against the naive baseline: the same pages read as a client without the API would, given the tokens.`,
      '',
      `- Command: \`npm run bench:nfts\` (${rounds} rotating rounds of ${seconds} s per side, each after ${warmUpSeconds} s of warm-up, each side's client a process of its own: bench/nfts/clients.ts).`,
      `- Chain and data: a fresh anvil (chain ${CHAIN_ID}, automine, so the chain holds still) with ${shape.collections} \`RelicCollection\`s (the world's committed artifact), each minting tokens 0..${shape.perCollection - 1} to the owner in one transaction, \`tokenURI\` = \`baseURI + id + ".json"\` on a local HTTP server (bench/nfts/metadata-server.ts) that serves each token's JSON document and its own SVG image.`,
      `- Server: the production server (\`node src/server/main.ts\` over a fixture build) on a SQLite file, \`NODE_UPSTREAMS_${NETWORK.toUpperCase().replaceAll('-', '_')}\` at the anvil, \`INDEXER_IN_SERVER=on\` (its transfer indexer filled the index), \`NFT_FETCH_PRIVATE=allow\` (the metadata server is on loopback), every other setting at its default (the metadata worker and webhook delivery running), \`REQUEST_LOG=on\` (its lines give the server's own time of each answer, from the request's arrival to its last byte handed to the socket; the side without metadata asks \`/nft/v3/<key>/getNFTs\`, the same endpoint, so its lines tell apart); one app key with 1,000,000 CU/s and a quota it never reaches. Warm cache: before timing, getNFTs with metadata read every page until every token had its document, its image stored and rendered, and its contract's facts (${warmSeconds.toFixed(1)} s from cold).`,
      `- getNFTs: autocannon, ${connections} keep-alive connections with one request in flight on each, every connection cycling through the ${Math.ceil(total / PAGE_SIZE)} pages (\`pageKey\`s collected first); the time of a page is its response's.`,
      `- Naive: ${connections} clients at once, each reading page after page over ${connections} keep-alive sockets to the gateway and ${connections} to the metadata server (node:http): for each of a page's ${PAGE_SIZE} tokens at once, \`ownerOf\` and \`tokenURI\` (two eth_calls, one JSON-RPC request each, no batching) then the document at the URI, with the owner and the document's name checked; the time of a page is from its first request to its last answer. It is given the token list the API finds in the index, and fetches no image (getNFTs answers with stored ones).`,
      `- Machine: ${cpus().length} CPUs (\`nproc\`), ${cpu}, Node ${process.version}; the clients, the server, the metadata server and anvil share the machine`,
      `- 1-minute load average: ${loadBefore.toFixed(2)} when measuring started${args['no-wait'] ? ' (not waited for: --no-wait)' : ''}, ${loadAfter.toFixed(2)} at the end`,
      `- Date: ${new Date().toISOString().slice(0, 10)}`,
      '',
      table,
      '',
      `Figures are over every page of the rounds: pages/s over their time together, p50/p99 of the pages' times. ${fetched} There is no numeric target for this benchmark. Where the tail with metadata comes from: the next section.`,
      '',
      ...(failed.length ? [`Failed pages: ${failed.join('; ')}.`, ''] : []),
    ].join('\n'),
  );
}
