import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAppKeySecret } from '../src/apps/key-secret.ts';
import { createAppStore } from '../src/apps/store.ts';
import { openDatabase } from '../src/db/open.ts';
import { startTestAnvil } from '../test/support/anvil.ts';
import { writeFixtureDist } from '../test/support/fixture-dist.ts';
import { startBuiltSite } from '../test/support/site.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { type ClientJob, type ClientResult, type NaiveToken, runClient } from './nfts/clients.ts';
import { fillCollection } from './nfts/collection-fill.ts';
import { benchPassName, startMetadataServer } from './nfts/metadata-server.ts';
import { readContractPages, serverTimes } from './nfts/collection-pages.ts';
import { quantile } from './quantile.ts';

// `npm run bench:nft-collections [-- --quick] [--tokens <n>] [--owners <n>] [--seconds <n>] [--rounds <n>] [--connections <n>] [--no-wait] [--no-write]`:
// a collection of 10,000 ERC-721 tokens held by 2,000 owners, read at 32 connections through the
// production server's NFT endpoints and the naive way, side by side in rotating rounds:
// getOwnersForContract (the owner list, and with withTokenBalances each owner's tokens) against
// `ownerOf` of every token through the same gateway; getNFTsForContract pages of 100 (with and
// without metadata) against `ownerOf` + `tokenURI` eth_calls and the document per token. A fresh
// anvil gets the collection (the world's AirdropCollection artifact: every token shares one hosted
// document); the server indexes it with its own transfer indexer on a SQLite file and one pass of
// getNFTsForContract over every page warms its metadata store. A full run writes the `## NFTs: a
// collection's owners and tokens` section of BENCHMARKS.md; --quick (1,000 tokens, one short round)
// writes nothing.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    tokens: { type: 'string' },
    owners: { type: 'string' },
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '32' },
    'no-wait': { type: 'boolean' },
    'no-write': { type: 'boolean' },
  },
});
const quick = args.quick ?? false;
const shape = { tokens: Number(args.tokens ?? (quick ? 1_000 : 10_000)), owners: Number(args.owners ?? (quick ? 200 : 2_000)) };
const seconds = Number(args.seconds ?? (quick ? 4 : 10));
const rounds = Number(args.rounds ?? (quick ? 1 : 3));
const connections = Number(args.connections);
const warmUpSeconds = quick ? 1 : 3;
const PAGE_SIZE = 100;
const NETWORK = 'base-sepolia';
const CHAIN_ID = 84532;
const QUIET_LOAD = 1.5;

const sideNames = ['owners', 'ownersWithBalances', 'naiveOwners', 'pages', 'pagesWithoutMetadata', 'naivePages'] as const;
type SideName = (typeof sideNames)[number];
const label: Record<SideName, string> = {
  owners: '`getOwnersForContract` (one request an answer)',
  ownersWithBalances: '`getOwnersForContract?withTokenBalances=true` (one request an answer)',
  naiveOwners: `naive: \`ownerOf\` of each of the ${shape.tokens.toLocaleString('en')} tokens through the gateway, ${connections} at once, grouped (${shape.tokens.toLocaleString('en')} requests an answer)`,
  pages: '`getNFTsForContract`, metadata included (one request a page)',
  pagesWithoutMetadata: '`getNFTsForContract?withMetadata=false` (one request a page)',
  naivePages: `naive: \`ownerOf\` + \`tokenURI\` eth_calls through the gateway and the document from the metadata server, per token (${3 * PAGE_SIZE} requests a page)`,
};
/** The server's request-log path of each API side: the sides of one endpoint use its two prefixes, so their lines tell apart. */
const loggedPath: Partial<Record<SideName, RegExp>> = {
  owners: /\/v2\/<key>\/getOwnersForContract$/,
  ownersWithBalances: /\/nft\/v3\/<key>\/getOwnersForContract$/,
  pages: /\/v2\/<key>\/getNFTsForContract$/,
  pagesWithoutMetadata: /\/nft\/v3\/<key>\/getNFTsForContract$/,
};

const log = (line: string) => console.log(line);
const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-nft-collections-'));
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
const answerBytes: Partial<Record<SideName, number>> = {};
try {
  log(`deploying a collection of ${shape.tokens} tokens held by ${shape.owners} owners`);
  const collection = await fillCollection(anvil, shape, metadataServer.baseUri(0));
  const head = Number(await anvil.client.getBlockNumber());

  const databasePath = join(scratch, 'crucible.sqlite');
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: [NETWORK],
  });
  // The highest rate an app may have, and a monthly quota that is counted but never reached.
  const { key } = await apps.create({ name: 'NFT collection benchmark', computeUnitsPerSecond: 1_000_000, monthlyComputeUnitQuota: Number.MAX_SAFE_INTEGER });
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
  const node = (prefix: string) => `/node/${NETWORK}/${prefix}/${key}`;
  const query = `contractAddress=${collection.contract}`;
  const pages = await readContractPages({
    origin: server.origin,
    base: `${node('v2')}/getNFTsForContract?${query}&limit=${PAGE_SIZE}`,
    ownersPath: `${node('v2')}/getOwnersForContract?${query}&includeCount=true`,
    tokens: shape.tokens,
    owners: shape.owners,
    head,
    log,
  });
  warmSeconds = pages.warmSeconds;
  const naivePages: NaiveToken[][] = pages.tokens.map((page) =>
    page.map((tokenId) => ({ contract: collection.contract, tokenId, name: benchPassName(0), owner: collection.ownerOf.get(tokenId)! })),
  );
  const rpcUrl = `${server.origin}${node('v2')}`;
  const common = { connections, seconds, warmUpSeconds };
  const jobs: Record<SideName, ClientJob> = {
    owners: { ...common, kind: 'api', origin: server.origin, paths: [`${node('v2')}/getOwnersForContract?${query}`] },
    ownersWithBalances: { ...common, kind: 'api', origin: server.origin, paths: [`${node('nft/v3')}/getOwnersForContract?${query}&withTokenBalances=true`] },
    naiveOwners: { ...common, kind: 'naive-owners', rpcUrl, contract: collection.contract, tokenIds: [...collection.ownerOf.keys()], owners: shape.owners },
    pages: { ...common, kind: 'api', origin: server.origin, paths: pages.paths },
    pagesWithoutMetadata: {
      ...common,
      kind: 'api',
      origin: server.origin,
      paths: pages.paths.map((path) => `${path.replace(node('v2'), node('nft/v3'))}&withMetadata=false`),
    },
    naivePages: { ...common, kind: 'naive', rpcUrl, owner: collection.owners[0]!, pages: naivePages },
  };
  // How large the answers are: what each costs to move to its client.
  for (const name of sideNames) {
    const job = jobs[name];
    if (job.kind === 'api') answerBytes[name] = (await (await fetch(`${server.origin}${job.paths[0]!}`)).arrayBuffer()).byteLength;
  }
  loadBefore = args['no-wait'] ? await loadAverage() : await waitForQuietMachine(log, QUIET_LOAD, 60);
  log(
    `1-minute load ${loadBefore.toFixed(2)}: ${rounds} rounds of ${seconds} s per side (after ${warmUpSeconds} s of warm-up each) at ${connections} connections`,
  );
  for (let round = 0; round < rounds; round++) {
    // Each round starts with the next side, so none always follows the same one.
    for (let k = 0; k < sideNames.length; k++) {
      const name = sideNames[(round + k) % sideNames.length]!;
      const linesBefore = server.logLines().length;
      const result = await runClient(jobs[name]);
      const path = loggedPath[name];
      // The warm-up's answers are in the log too: the server's times are of the side's whole run.
      if (path) serverMs[name].push(...serverTimes(server.logLines().slice(linesBefore), path));
      results[name].push(result);
      const inRound = figuresOf([result], []);
      log(
        `round ${round + 1} ${name.padEnd(20)} ${inRound.perSecond.toFixed(1).padStart(8)}/s, p50 ${inRound.p50.toFixed(1)} ms, p99 ${inRound.p99.toFixed(1)} ms` +
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
  perSecond: number;
  p50: number;
  p99: number;
  answers: number;
  failures: number;
  firstFailure: string | null;
  serverP50: number | null;
  serverP99: number | null;
}

/** Over every answer of the rounds: answers/s over their time together, p50 and p99 of their times; the server's own p50 and p99. */
function figuresOf(side: ClientResult[], server: number[]): Figures {
  const times = side.flatMap((result) => result.times);
  const total = side.reduce((sum, result) => sum + result.seconds, 0);
  return {
    perSecond: times.length / total,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    answers: times.length,
    failures: side.reduce((sum, result) => sum + result.failures, 0),
    firstFailure: side.find((result) => result.firstFailure)?.firstFailure ?? null,
    serverP50: server.length ? quantile(server, 0.5) : null,
    serverP99: server.length ? quantile(server, 0.99) : null,
  };
}

const figures = Object.fromEntries(sideNames.map((name) => [name, figuresOf(results[name], serverMs[name])])) as Record<SideName, Figures>;
const ms = (value: number | null) => (value === null ? '' : value.toFixed(1));
const faster = (name: SideName, naive: SideName) =>
  `${(figures[naive].p50 / figures[name].p50).toFixed(1)}× / ${(figures[naive].p99 / figures[name].p99).toFixed(1)}× / ${(figures[name].perSecond / figures[naive].perSecond).toFixed(1)}×`;
const tableOf = (title: string, names: readonly SideName[], naive: SideName) =>
  [
    `| ${title} | answers/s | p50 (ms) | p99 (ms) | server's own p50 / p99 (ms) | answers | failed | faster than naive: p50 / p99 / answers/s |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...names.map((name) => {
      const f = figures[name];
      const own = f.serverP50 === null ? '' : `${ms(f.serverP50)} / ${ms(f.serverP99)}`;
      return `| ${label[name]} | ${f.perSecond.toFixed(2)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${own} | ${f.answers} | ${f.failures} | ${name === naive ? '' : faster(name, naive)} |`;
    }),
  ].join('\n');
const sizes = (['owners', 'ownersWithBalances', 'pages', 'pagesWithoutMetadata'] as const)
  .map((name) => `${label[name].split(' (')[0]} ${((answerBytes[name] ?? 0) / 1024).toFixed(0)} KB`)
  .join(', ');
const ownersTable = tableOf(
  `${connections} connections, the owners of ${shape.tokens.toLocaleString('en')} tokens`,
  ['owners', 'ownersWithBalances', 'naiveOwners'],
  'naiveOwners',
);
const pagesTable = tableOf(`${connections} connections, pages of ${PAGE_SIZE}`, ['pages', 'pagesWithoutMetadata', 'naivePages'], 'naivePages');
log(`\n${ownersTable}\n\n${pagesTable}\n\nAnswers' sizes: ${sizes}\n`);

const cpu = await cpuModel();
const out = join(import.meta.dirname, 'out');
await mkdir(out, { recursive: true });
await writeFile(
  join(out, 'nft-collections.json'),
  `${JSON.stringify({ shape, connections, seconds, rounds, cpu, loadBefore, loadAfter, warmSeconds, answerBytes, figures }, null, 2)}\n`,
);
const failed = sideNames.filter((name) => figures[name].failures > 0).map((name) => `${name} ${figures[name].failures} (first: ${figures[name].firstFailure})`);
if (!quick && !args['no-write']) {
  await writeBenchmarksSection(
    "NFTs: a collection's owners and tokens",
    [
      "## NFTs: a collection's owners and tokens",
      '',
      `A collection of ${shape.tokens.toLocaleString('en')} ERC-721 tokens held by ${shape.owners.toLocaleString('en')} owners (${shape.tokens / shape.owners} each), at ${connections} connections: \`getOwnersForContract\` against the naive owner list (\`ownerOf\` of every token through the gateway), and \`getNFTsForContract\` pages of ${PAGE_SIZE} against the naive page (\`ownerOf\` and \`tokenURI\` per token through the gateway, then the document), side by side in one run.`,
      '',
      `- Command: \`npm run bench:nft-collections${args['no-wait'] ? ' -- --no-wait' : ''}\` (${rounds} rotating rounds of ${seconds} s per side, each after ${warmUpSeconds} s of warm-up, each side's client a process of its own: bench/nfts/clients.ts).`,
      `- Chain and data: a fresh anvil (chain ${CHAIN_ID}, automine, so the chain holds still) with one \`AirdropCollection\` (the world's committed artifact) minting tokens 1..${shape.tokens} in order to ${shape.owners.toLocaleString('en')} addresses in turn, in transactions of 200; every token's \`tokenURI\` is the one document \`baseURI + "pass.json"\` on a local HTTP server (bench/nfts/metadata-server.ts).`,
      `- Server: the production server (\`node src/server/main.ts\` over a fixture build) on a SQLite file, \`NODE_UPSTREAMS_${NETWORK.toUpperCase().replaceAll('-', '_')}\` at the anvil, \`INDEXER_IN_SERVER=on\`, \`NFT_FETCH_PRIVATE=allow\`, \`REQUEST_LOG=on\` (its lines give the server's own time of each answer, for every side alike), every other setting at its default; one app key with 1,000,000 CU/s. Warm cache: before timing, getNFTsForContract with metadata read every page until every token had its document and stored image (${warmSeconds.toFixed(1)} s from cold).`,
      `- API sides: autocannon, ${connections} keep-alive connections with one request in flight on each (the pages cycled through, \`pageKey\`s collected first); an answer's time is its response's. The server's own time is from the request's arrival to its last byte handed to the socket (the request log's \`durationMs\`).`,
      `- Naive owners: one client with ${connections} keep-alive sockets to the gateway, ${connections} \`ownerOf\` eth_calls in flight until every token's owner is known, checked against the ${shape.owners.toLocaleString('en')} owners; an answer's time is the whole list's. Naive pages: ${connections} clients at once, each reading page after page, for each of a page's ${PAGE_SIZE} tokens at once \`ownerOf\` and \`tokenURI\` (two eth_calls) then the document, the owner and the document's name checked.`,
      `- Machine: ${cpus().length} CPUs (\`nproc\`), ${cpu}, Node ${process.version}; the clients, the server, the metadata server and anvil share the machine`,
      `- 1-minute load average: ${loadBefore.toFixed(2)} when measuring started${args['no-wait'] ? ' (not waited for: --no-wait)' : ''}, ${loadAfter.toFixed(2)} at the end`,
      `- Date: ${new Date().toISOString().slice(0, 10)}`,
      '',
      ownersTable,
      '',
      pagesTable,
      '',
      `Figures are over every answer of the rounds: answers/s over their time together, p50/p99 of the answers' times. Answers' sizes: ${sizes}. There is no numeric target for this benchmark.`,
      '',
      ...(failed.length ? [`Failed answers: ${failed.join('; ')}.`, ''] : []),
    ].join('\n'),
  );
}
