import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ARTIFACTS } from '../src/chain/world/artifacts.ts';
import { openDatabase } from '../src/db/open.ts';
import { createTransferIndexer } from '../src/indexer/indexer.ts';
import { createDeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { webhookIndexHooks } from '../src/webhooks/outbox.ts';
import { createWebhookStore } from '../src/webhooks/store.ts';
import { randomAddress, startTestAnvil, THIRD_PARTY_KEY } from '../test/support/anvil.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { quantile } from './quantile.ts';
import { startReceiverProcess } from './webhooks/receiver-process.ts';

// `npm run bench:webhooks [-- --quick] [--blocks <n>] [--per-block <n>] [--backlog <n>] [--webhooks <n>] [--no-wait] [--no-write]`:
// NFT webhook delivery (docs/webhooks.md#delivery) as `npm start` runs it: the transfer indexer and the delivery
// worker in one process with their default settings, on a SQLite file, a real anvil, and a
// receiver in a process of its own that answers 200 at once.
// 1. Latency: blocks of --per-block (100) ERC-721 airdrop transfers, one every 2 s; for each, the
//    time from the block being mined to the receiver's POST carrying its activity (one webhook).
// 2. Throughput: with the worker stopped, --backlog (40) blocks of transfers to --webhooks (50)
//    webhooks fill the outbox; then one worker alone drains it: deliveries per second, and CPU.
// A full run writes the `## Webhooks: delivery` section of BENCHMARKS.md.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    blocks: { type: 'string' },
    'per-block': { type: 'string' },
    backlog: { type: 'string' },
    webhooks: { type: 'string' },
    'no-wait': { type: 'boolean' },
    'no-write': { type: 'boolean' },
  },
});
const quick = args.quick ?? false;
const shape = {
  blocks: Number(args.blocks ?? (quick ? 10 : 60)),
  perBlock: Number(args['per-block'] ?? 100),
  backlog: Number(args.backlog ?? (quick ? 5 : 40)),
  webhooks: Number(args.webhooks ?? (quick ? 10 : 50)),
};
const CHAIN_ID = 7357013;
const NETWORK = 'bench';
const BLOCK_GAP_MS = 2_000;
const QUIET_LOAD = 1.5;
/** The defaults `npm start` runs with (src/config/indexer.ts, src/config/webhooks.ts). */
const INDEXER_POLL_MS = 1_000;
const WORKER = { pollIntervalMs: 500, concurrency: 16, timeoutMs: 5_000, claimMs: 30_000 };

const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-webhooks-'));
const anvil = await startTestAnvil({ chainId: CHAIN_ID, extraArgs: ['--no-mining'] });
const database = await openDatabase({ engine: 'sqlite', path: join(scratch, 'bench.sqlite') });
const receiver = await startReceiverProcess();
const owner = privateKeyToAccount(THIRD_PARTY_KEY);
const store = createWebhookStore(database.db, { networks: [NETWORK], urlRules: { local: true } });
const indexer = createTransferIndexer({
  db: database.db,
  networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID }],
  pollIntervalMs: INDEXER_POLL_MS,
  ...webhookIndexHooks({ reorgWindow: 128, nativeCurrency: () => ({ symbol: 'ETH', decimals: 18 }) }),
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

let latencies: number[] = [];
let drain = { deliveries: 0, seconds: 0, cpuMs: 0 };
let loadBefore = 0;
let loadAfter = 0;
try {
  loadBefore = args['no-wait'] ? await loadAverage() : await waitForQuietMachine(log, QUIET_LOAD);
  const collection = await deployAirdrop();
  log(
    `airdrop collection ${collection}; ${shape.blocks} blocks of ${shape.perBlock} transfers, then a backlog of ${shape.backlog} blocks to ${shape.webhooks} webhooks`,
  );
  const first = await store.create(owner.address, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url });

  // 1. Latency, one webhook.
  indexer.start();
  let worker = newWorker();
  worker.start();
  await mineAirdrop(collection, 1); // the indexer's first steps (checkpoint, genesis) are not measured
  await receiver.waitFor((posts) => posts.length >= 1);
  const minedAt = new Map<number, number>();
  for (let index = 0; index < shape.blocks; index++) {
    const { block, at } = await mineAirdrop(collection, shape.perBlock);
    minedAt.set(block, at);
    await sleep(BLOCK_GAP_MS);
  }
  await receiver.waitFor((posts) => [...minedAt.keys()].every((block) => posts.some((post) => post.block === block)));
  latencies = [...minedAt].map(([block, at]) => receiver.posts.find((post) => post.block === block)!.at - at);
  log(`latency over ${latencies.length} blocks: p50 ${quantile(latencies, 0.5)} ms, p99 ${quantile(latencies, 0.99)} ms, max ${Math.max(...latencies)} ms`);

  // 2. Throughput: the outbox filled while no worker runs, then drained by one.
  await worker.stop();
  for (let index = 1; index < shape.webhooks; index++) await store.create(owner.address, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url });
  let head = 0;
  for (let index = 0; index < shape.backlog; index++) head = (await mineAirdrop(collection, shape.perBlock)).block;
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
  const firstDeliveries = receiver.posts.filter((post) => post.webhookId === first.id).length;
  if (firstDeliveries < shape.blocks + shape.backlog) throw new Error(`the first webhook got ${firstDeliveries} deliveries`);
  loadAfter = await loadAverage();
} finally {
  await indexer.stop().catch(() => {});
  receiver.stop();
  await database.close();
  await anvil.stop();
  await rm(scratch, { recursive: true, force: true });
}

if (!quick && !args['no-write']) {
  const section = [
    '## Webhooks: delivery',
    '',
    'NFT webhook delivery (docs/webhooks.md#delivery) as `npm start` runs it: the transfer indexer and the delivery worker in one process with their default settings (indexer polls the head every 1 s; the worker looks for due deliveries every 500 ms when idle, 16 at once), on a SQLite file, against a real anvil; the receiver is a process of its own that answers 200 at once (bench/webhooks/receiver.ts).',
    '',
    `- Command: \`npm run bench:webhooks\``,
    `- Latency: ${shape.blocks} blocks of ${shape.perBlock} ERC-721 transfers (one \`airdrop\` of the world's AirdropCollection artifact each), one every ${BLOCK_GAP_MS / 1000} s, one webhook; from \`evm_mine\` returning to the receiver's POST with that block's activity.`,
    `- Throughput: with the worker stopped, ${shape.backlog} blocks of ${shape.perBlock} transfers to ${shape.webhooks} webhooks (${shape.backlog * shape.webhooks} deliveries of ${shape.perBlock} activities each) fill the outbox; then one worker alone drains it, the indexer stopped.`,
    `- Machine: ${cpus().length} CPUs (\`nproc\`), ${await cpuModel()}, Node ${process.version}; 1-minute load ${loadBefore.toFixed(2)} when measuring started, ${loadAfter.toFixed(2)} at the end`,
    `- Date: ${new Date().toISOString().slice(0, 10)}`,
    '',
    '| measure | figure |',
    '|---|---:|',
    `| block to receiver, p50 (ms) | ${quantile(latencies, 0.5)} |`,
    `| block to receiver, p99 (ms) | ${quantile(latencies, 0.99)} |`,
    `| block to receiver, max (ms) | ${Math.max(...latencies)} |`,
    `| deliveries per second, one process | ${Math.round(drain.deliveries / drain.seconds)} |`,
    `| CPU per delivery in the delivering process (ms) | ${(drain.cpuMs / drain.deliveries).toFixed(2)} |`,
    '',
    `The latency is mostly the two polling intervals: a block waits up to 1 s for the indexer to look at the head, and its delivery up to 500 ms for the worker to look for it. With ${latencies.length} blocks, p99 is the slowest block but one or two.`,
    '',
  ].join('\n');
  await writeBenchmarksSection('Webhooks: delivery', section);
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

/** One block holding one airdrop to `count` fresh addresses; resolves once it is mined. */
async function mineAirdrop(collection: Address, count: number): Promise<{ block: number; at: number }> {
  const artifact = ARTIFACTS.AirdropCollection;
  await anvil.client.writeContract({
    account: owner,
    address: collection,
    abi: artifact.abi,
    functionName: 'airdrop',
    args: [Array.from({ length: count }, randomAddress)],
    chain: null,
  });
  await anvil.client.mine({ blocks: 1 });
  const at = Date.now();
  return { block: Number(await anvil.client.getBlockNumber({ cacheTime: 0 })), at };
}

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await sleep(100);
}
