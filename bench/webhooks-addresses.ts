import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ARTIFACTS } from '../src/chain/world/artifacts.ts';
import { openDatabase, type Database } from '../src/db/open.ts';
import { createTransferIndexer } from '../src/indexer/indexer.ts';
import type { Transfer } from '../src/transfers/transfer.ts';
import { createDeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { webhookIndexHooks } from '../src/webhooks/outbox.ts';
import { createWebhookStore } from '../src/webhooks/store.ts';
import { randomAddress, startTestAnvil, THIRD_PARTY_KEY } from '../test/support/anvil.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { quantile } from './quantile.ts';
import { startReceiverProcess } from './webhooks/receiver-process.ts';

// `npm run bench:webhooks:addresses [-- --quick] [--blocks <n>] [--per-block <n>] [--webhooks <n>] [--addresses <n>] [--no-wait] [--no-write]`:
// ADDRESS_ACTIVITY matching (docs/webhooks.md#address-activity) as `npm start` runs it: --webhooks
// (10) webhooks listening to --addresses (100,000) addresses in all, each block --per-block (1,000)
// transfers of which one in ten goes to a listed address (every webhook matches every block).
// 1. Matching alone: the outbox's hook on one block's transfers, in the index's transaction (rolled
//    back), against the 100,000 addresses and against 1,000 (the same matches): ms per block.
// 2. Latency: the transfer indexer and the delivery worker in one process with their default
//    settings, on a SQLite file and a real anvil, the receiver a process of its own; a block of
//    airdrops every 2 s; from the block being mined to the receiver's POST, for every webhook.
// 3. Throughput: with the worker stopped, a backlog of blocks fills the outbox; one worker drains it.
// A full run writes the `## Webhooks: address activity` section of BENCHMARKS.md.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    blocks: { type: 'string' },
    'per-block': { type: 'string' },
    webhooks: { type: 'string' },
    addresses: { type: 'string' },
    'no-wait': { type: 'boolean' },
    'no-write': { type: 'boolean' },
  },
});
const quick = args.quick ?? false;
const shape = {
  blocks: Number(args.blocks ?? (quick ? 5 : 30)),
  perBlock: Number(args['per-block'] ?? 1000),
  webhooks: Number(args.webhooks ?? 10),
  addresses: Number(args.addresses ?? 100_000),
  backlog: quick ? 5 : 20,
  matchingBlocks: quick ? 10 : 50,
};
/** Transfers of a block that go to a listed address: one in ten, spread over the webhooks. */
const listedPerBlock = Math.round(shape.perBlock / 10);
const CHAIN_ID = 7357014;
const NETWORK = 'bench';
const SMALL_NETWORK = 'bench-small';
const BLOCK_GAP_MS = 2_000;
/** Recipients per airdrop transaction: a block holds --per-block of them in several. */
const PER_TRANSACTION = 250;
const QUIET_LOAD = 1.5;
const INDEXER_POLL_MS = 1_000;
const WORKER = { pollIntervalMs: 500, concurrency: 16, timeoutMs: 5_000, claimMs: 30_000 };

const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-addresses-'));
const anvil = await startTestAnvil({ chainId: CHAIN_ID, extraArgs: ['--no-mining', '--gas-limit', '1000000000'] });
const database = await openDatabase({ engine: 'sqlite', path: join(scratch, 'bench.sqlite') });
const receiver = await startReceiverProcess();
const owner = privateKeyToAccount(THIRD_PARTY_KEY);
const store = createWebhookStore(database.db, { networks: [NETWORK, SMALL_NETWORK], urlRules: { local: true } });
const hooks = webhookIndexHooks({ reorgWindow: 128, nativeCurrency: () => ({ symbol: 'ETH', decimals: 18 }) });
const indexer = createTransferIndexer({
  db: database.db,
  networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID }],
  pollIntervalMs: INDEXER_POLL_MS,
  ...hooks,
  log: () => {},
});
const newWorker = () =>
  createDeliveryWorker({
    database,
    retryDelaysMs: [15_000, 60_000, 600_000, 3_600_000],
    pauseAfterFailures: 5,
    blockedAddresses: null,
    ...WORKER,
    log: () => {},
  });

let matching = { large: [] as number[], small: [] as number[] };
let latencies: number[] = [];
let drain = { deliveries: 0, seconds: 0, cpuMs: 0 };
let loadBefore = 0;
let loadAfter = 0;
try {
  loadBefore = args['no-wait'] ? await loadAverage() : await waitForQuietMachine(log, QUIET_LOAD);
  const listed = await createWebhooks(NETWORK, shape.addresses);
  const fewer = await createWebhooks(SMALL_NETWORK, 1000);
  log(`${shape.webhooks} webhooks: ${shape.addresses} addresses in all on ${NETWORK}, 1000 on ${SMALL_NETWORK}`);

  // 1. Matching alone, in a transaction rolled back each block.
  matching = { large: await timeMatching(NETWORK, listed), small: await timeMatching(SMALL_NETWORK, fewer) };
  log(
    `matching ${shape.perBlock} transfers: p50 ${quantile(matching.large, 0.5).toFixed(1)} ms (${shape.addresses} addresses), ${quantile(matching.small, 0.5).toFixed(1)} ms (1000)`,
  );

  // 2. Latency, every webhook of every block.
  const collection = await deployAirdrop();
  indexer.start();
  let worker = newWorker();
  worker.start();
  await mineAirdrop(collection, listed, 0);
  await receiver.waitFor((posts) => posts.length >= shape.webhooks);
  const minedAt = new Map<number, number>();
  for (let index = 1; index <= shape.blocks; index++) {
    const { block, at } = await mineAirdrop(collection, listed, index);
    minedAt.set(block, at);
    await sleep(BLOCK_GAP_MS);
  }
  const arrived = (block: number) => receiver.posts.filter((post) => post.block === block);
  await receiver.waitFor(() => [...minedAt.keys()].every((block) => arrived(block).length >= shape.webhooks));
  latencies = [...minedAt].flatMap(([block, at]) => arrived(block).map((post) => post.at - at));
  const activities = receiver.posts.filter((post) => minedAt.has(post.block ?? -1)).map((post) => post.activities);
  if (activities.some((count) => count !== listedPerBlock / shape.webhooks))
    throw new Error(`a delivery carried ${activities.find((count) => count !== listedPerBlock / shape.webhooks)} activities`);
  log(`latency over ${latencies.length} deliveries: p50 ${quantile(latencies, 0.5)} ms, p99 ${quantile(latencies, 0.99)} ms, max ${Math.max(...latencies)} ms`);

  // 3. Throughput: the outbox filled while no worker runs, then drained by one.
  await worker.stop();
  let head = 0;
  for (let index = 0; index < shape.backlog; index++) head = (await mineAirdrop(collection, listed, shape.blocks + 1 + index)).block;
  await waitUntil(async () => (indexer.progress()[0]?.indexedBlock ?? 0) >= head);
  await indexer.stop();
  const pending = await database.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  const expected = Number(pending.count);
  if (expected !== shape.backlog * shape.webhooks) throw new Error(`the outbox holds ${expected} pending deliveries, not ${shape.backlog * shape.webhooks}`);
  const postsBefore = receiver.posts.length;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  worker = newWorker();
  worker.start();
  await receiver.waitFor((posts) => posts.length - postsBefore >= expected);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await worker.stop();
  drain = { deliveries: expected, seconds, cpuMs: (cpu.user + cpu.system) / 1000 };
  log(`drained ${expected} deliveries in ${seconds.toFixed(2)} s: ${Math.round(expected / seconds)}/s, ${(drain.cpuMs / expected).toFixed(2)} ms CPU each`);
  loadAfter = await loadAverage();
} finally {
  await indexer.stop().catch(() => {});
  receiver.stop();
  await database.close();
  await anvil.stop();
  await rm(scratch, { recursive: true, force: true });
}

if (!quick && !args['no-write']) {
  const fixed = (values: number[], q: number) => quantile(values, q).toFixed(1);
  const section = [
    '## Webhooks: address activity',
    '',
    `ADDRESS_ACTIVITY matching and delivery (docs/webhooks.md#address-activity) as \`npm start\` runs them: ${shape.webhooks} webhooks listening to ${shape.addresses.toLocaleString('en')} addresses in all (${(shape.addresses / shape.webhooks).toLocaleString('en')} each), blocks of ${shape.perBlock.toLocaleString('en')} ERC-721 transfers of which ${listedPerBlock} go to listed addresses (${listedPerBlock / shape.webhooks} per webhook, so every webhook has a delivery every block); the transfer indexer and the delivery worker in one process with their default settings, on a SQLite file, against a real anvil; the receiver a process of its own that answers 200 at once (bench/webhooks/receiver.ts).`,
    '',
    `- Command: \`npm run bench:webhooks:addresses\``,
    `- Matching: the outbox's hook on one block of ${shape.perBlock} transfers, in a transaction rolled back after it (${shape.matchingBlocks} blocks after one that warms the caches), as the indexer calls it in its own: every address the block touches is one index seek (by network and address), so the figure follows the block's addresses, not the list's. Against ${shape.addresses.toLocaleString('en')} addresses and, for comparison, 1,000 with the same matches.`,
    `- Latency: ${shape.blocks} blocks, one every ${BLOCK_GAP_MS / 1000} s (${shape.perBlock / PER_TRANSACTION} \`airdrop\`s of the world's AirdropCollection artifact each); from \`evm_mine\` returning to the receiver's POST with that block's activity, for each of the ${shape.webhooks} webhooks (${shape.blocks * shape.webhooks} deliveries).`,
    `- Throughput: with the worker stopped, ${shape.backlog} blocks fill the outbox (${shape.backlog * shape.webhooks} deliveries of ${listedPerBlock / shape.webhooks} activities each); then one worker alone drains it, the indexer stopped.`,
    `- Machine: ${cpus().length} CPUs (\`nproc\`), ${await cpuModel()}, Node ${process.version}; 1-minute load ${loadBefore.toFixed(2)} when measuring started, ${loadAfter.toFixed(2)} at the end`,
    `- Date: ${new Date().toISOString().slice(0, 10)}`,
    '',
    '| measure | figure |',
    '|---|---:|',
    `| matching a block, ${shape.addresses.toLocaleString('en')} addresses, p50 (ms) | ${fixed(matching.large, 0.5)} |`,
    `| matching a block, ${shape.addresses.toLocaleString('en')} addresses, p99 (ms) | ${fixed(matching.large, 0.99)} |`,
    `| matching a block, 1,000 addresses, p50 (ms) | ${fixed(matching.small, 0.5)} |`,
    `| matching a block, 1,000 addresses, p99 (ms) | ${fixed(matching.small, 0.99)} |`,
    `| block to receiver, p50 (ms) | ${quantile(latencies, 0.5)} |`,
    `| block to receiver, p99 (ms) | ${quantile(latencies, 0.99)} |`,
    `| block to receiver, max (ms) | ${Math.max(...latencies)} |`,
    `| deliveries per second, one process | ${Math.round(drain.deliveries / drain.seconds)} |`,
    `| CPU per delivery in the delivering process (ms) | ${(drain.cpuMs / drain.deliveries).toFixed(2)} |`,
    '',
    `Matching is the indexer's share: it runs inside the index's transaction, so a block's index step takes that much longer; with ${shape.matchingBlocks} blocks, p99 is the slowest but one. The latency is mostly the two polling intervals, as for NFT activity (up to 1 s for the indexer to look at the head, up to 500 ms for the worker to look for the deliveries), plus the block's own indexing.`,
    '',
  ].join('\n');
  await writeBenchmarksSection('Webhooks: address activity', section);
}

/** `shape.webhooks` webhooks on `network` listening to `total` fresh addresses in all. */
async function createWebhooks(network: string, total: number): Promise<string[][]> {
  const each = Math.floor(total / shape.webhooks);
  const made: string[][] = [];
  for (let index = 0; index < shape.webhooks; index++) {
    const addresses = Array.from({ length: each }, () => randomAddress().toLowerCase());
    await store.create(owner.address, { type: 'ADDRESS_ACTIVITY', network, url: receiver.url, addresses });
    made.push(addresses);
  }
  return made;
}

/** Block `index`'s recipients: `listedPerBlock` listed ones (the same share of each webhook), the rest fresh. */
function recipients(listed: string[][], index: number): Address[] {
  const perWebhook = listedPerBlock / shape.webhooks;
  const chosen = listed.flatMap((addresses) => Array.from({ length: perWebhook }, (_, k) => addresses[(index * perWebhook + k) % addresses.length]!));
  return [...chosen, ...Array.from({ length: shape.perBlock - chosen.length }, () => randomAddress())] as Address[];
}

/** The outbox hook's wall time on synthetic blocks, each in a transaction rolled back after it; the first, which warms the caches, is not counted. */
async function timeMatching(network: string, listed: string[][]): Promise<number[]> {
  const times: number[] = [];
  for (let index = -1; index < shape.matchingBlocks; index++) {
    const block = 1_000_001 + index;
    const hash = `0x${block.toString(16).padStart(64, '0')}` as Hex;
    const transfers: Transfer[] = recipients(listed, index + 1).map((to, logIndex) => ({
      blockNumber: block,
      blockHash: hash,
      blockTimestamp: 1_700_000_000,
      transactionHash: hash,
      transactionIndex: logIndex,
      logIndex,
      batchIndex: 0,
      contract: '0x00000000000000000000000000000000000c0de1',
      kind: 'erc721',
      from: '0x0000000000000000000000000000000000000000',
      to: to.toLowerCase() as Address,
      tokenId: String(logIndex + 1),
      amount: '1',
    }));
    await rolledBack(database, async (trx) => {
      const started = performance.now();
      await hooks.onTransfers({ network, from: block, to: block, transfers, nativeTransfers: [] }, trx);
      if (index >= 0) times.push(performance.now() - started);
    });
  }
  return times;
}

async function rolledBack(on: Database, work: (trx: Database['db']) => Promise<void>): Promise<void> {
  const rollback = new Error('rolled back');
  await on.db
    .transaction()
    .execute(async (trx) => {
      await work(trx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
}

/** Deploys the world's AirdropCollection artifact (its owner may airdrop). */
async function deployAirdrop(): Promise<Address> {
  const artifact = ARTIFACTS.AirdropCollection;
  const hash = await anvil.client.deployContract({
    account: owner,
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: ['Bench Drop', 'BDROP', owner.address],
    chain: null,
  });
  await anvil.client.mine({ blocks: 1 });
  const receipt = await anvil.client.waitForTransactionReceipt({ hash });
  return receipt.contractAddress!;
}

/** One block of airdrops to block `index`'s recipients; resolves once it is mined. */
async function mineAirdrop(collection: Address, listed: string[][], index: number): Promise<{ block: number; at: number }> {
  const artifact = ARTIFACTS.AirdropCollection;
  const all = recipients(listed, index);
  for (let offset = 0; offset < all.length; offset += PER_TRANSACTION) {
    await anvil.client.writeContract({
      account: owner,
      address: collection,
      abi: artifact.abi,
      functionName: 'airdrop',
      args: [all.slice(offset, offset + PER_TRANSACTION)],
      gas: 30_000_000n,
      chain: null,
    });
  }
  await anvil.client.mine({ blocks: 1 });
  const at = Date.now();
  return { block: Number(await anvil.client.getBlockNumber({ cacheTime: 0 })), at };
}

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await sleep(100);
}
