import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPublicClient, erc20Abi, http, parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadAppKeySecret } from '../src/apps/key-secret.ts';
import { createAppStore } from '../src/apps/store.ts';
import { ARTIFACTS } from '../src/chain/world/artifacts.ts';
import { deployWorld } from '../src/chain/world/deploy.ts';
import { openDatabase } from '../src/db/open.ts';
import { getTokenBalances, type TokenBalancesResult } from '../src/tokens/balances.ts';
import type { TokenIndex } from '../src/tokens/token-index.ts';
import { viemTokenChain } from '../src/tokens/viem-chain.ts';
import { randomAddress, startTestAnvil, THIRD_PARTY_KEY } from '../test/support/anvil.ts';
import { writeFixtureDist } from '../test/support/fixture-dist.ts';
import { startBuiltSite } from '../test/support/site.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { quantile } from './quantile.ts';

// `npm run bench:tokens [-- --quick] [--tokens <n>] [--samples <n>] [--rounds <n>] [--no-wait] [--no-write]`:
// the balances of a holder of 50 ERC-20s, read four ways from the same anvil, one answer at a time,
// in rotating rounds so all four see the same machine:
//   through the gateway (the production server over a build, an app key, NODE_UPSTREAMS_<ID> at
//   the anvil): crucible_getTokenBalances with the 50 contracts (one request; the server reads them
//   in one aggregate3 eth_call), against the naive peer approach, 50 concurrent balanceOf eth_calls
//   (viem's readContract, one request each, as a client of an incumbent provider sends them);
//   straight to anvil: the token core (getTokenBalances in this process) against the same 50 calls.
// p50/p99 per answer and the ratios; figures to bench/out/token-balances.json, and on a full run
// (not --quick, not --no-write) to the `## Token balances` section of BENCHMARKS.md.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    tokens: { type: 'string', default: '50' },
    samples: { type: 'string' },
    rounds: { type: 'string' },
    'no-wait': { type: 'boolean' },
    'no-write': { type: 'boolean' },
  },
});
const quick = args.quick ?? false;
const tokenCount = Number(args.tokens);
const samples = Number(args.samples ?? (quick ? 50 : 400));
const rounds = Number(args.rounds ?? (quick ? 2 : 5));
const warmup = quick ? 20 : 100;
const NETWORK = 'base-sepolia';
const CHAIN_ID = 84532;
const TARGET = 5;
const QUIET_LOAD = 1.5;

const approachNames = ['gateway', 'gatewayNaive', 'direct', 'directNaive'] as const;
type Approach = (typeof approachNames)[number];
type Figures = Record<Approach, { p50: number; p99: number; answers: number; failed: number }>;

const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-tokens-'));
const fixture = await writeFixtureDist();
const anvil = await startTestAnvil({ chainId: CHAIN_ID });
let server: Awaited<ReturnType<typeof startBuiltSite>> | undefined;
let figures: Figures;
// A failed answer is counted and named, not timed: one failure does not end the run.
const failures = Object.fromEntries(approachNames.map((name) => [name, [] as string[]])) as Record<Approach, string[]>;
let loadBefore: number;
let loadAfter: number;
try {
  // The world brings Multicall3; the holder's tokens are 50 more ERC-20s minted to it at deployment.
  await deployWorld(anvil.rpcUrl, { siteOrigin: 'http://localhost:4321' });
  const holder = randomAddress();
  const tokens = await deployTokens(holder, tokenCount);

  const databasePath = join(scratch, 'crucible.sqlite');
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: [NETWORK],
  });
  // A rate and a monthly quota the benchmark never reaches.
  const { key } = await apps.create({ name: 'token balances benchmark', computeUnitsPerSecond: 1_000_000, monthlyComputeUnitQuota: Number.MAX_SAFE_INTEGER });
  await database.close();
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: { DATABASE_PATH: databasePath, [`NODE_UPSTREAMS_${NETWORK.toUpperCase().replaceAll('-', '_')}`]: anvil.rpcUrl, REQUEST_LOG: 'off' },
  });
  const gatewayUrl = `${server.origin}/node/${NETWORK}/v2/${key}`;

  const client = (url: string) => createPublicClient({ transport: http(url, { retryCount: 0 }) });
  const [viaGateway, direct] = [client(gatewayUrl), client(anvil.rpcUrl)];
  const chain = viemTokenChain(client(anvil.rpcUrl));
  // Not asked: the list names the contracts.
  const unused = () => Promise.reject(new Error('the benchmark passes its contracts'));
  const noIndex: TokenIndex = { tokensOfHolder: unused, coverage: unused, assetTransfers: unused };
  const naive = (reader: ReturnType<typeof client>) => () =>
    Promise.all(tokens.map((address) => reader.readContract({ address, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })));
  const balancesOf = (answer: TokenBalancesResult) => {
    if (answer.tokenBalances.some((entry) => entry.tokenBalance === null)) throw new Error('a balance failed');
    return answer.tokenBalances.map((entry) => BigInt(entry.tokenBalance!));
  };
  const approaches: Record<Approach, () => Promise<bigint[]>> = {
    gateway: async () =>
      balancesOf((await viaGateway.request({ method: 'crucible_getTokenBalances', params: [holder, tokens] } as never)) as TokenBalancesResult),
    gatewayNaive: naive(viaGateway),
    direct: async () => balancesOf(await getTokenBalances(chain, noIndex, [holder, tokens])),
    directNaive: naive(direct),
  };

  // Every way gives the same balances before anything is timed.
  const expected = JSON.stringify((await approaches.directNaive()).map(String));
  for (const name of approachNames) {
    if (JSON.stringify((await approaches[name]()).map(String)) !== expected) throw new Error(`${name} answered other balances`);
  }

  loadBefore = args['no-wait'] ? await loadAverage() : await waitForQuietMachine(console.log, QUIET_LOAD, 60);
  console.log(`${tokenCount} tokens, ${rounds} rounds of ${samples} answers per approach after ${warmup} each, load ${loadBefore.toFixed(2)}`);
  for (const name of approachNames) for (let i = 0; i < warmup; i++) await approaches[name]();
  const latencies = Object.fromEntries(approachNames.map((name) => [name, [] as number[]])) as Record<Approach, number[]>;
  for (let round = 0; round < rounds; round++) {
    // Each round starts with the next approach, so none always follows the same one.
    for (let k = 0; k < approachNames.length; k++) {
      const name = approachNames[(round + k) % approachNames.length]!;
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        try {
          await approaches[name]();
          latencies[name].push(performance.now() - started);
        } catch (error) {
          const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
          failures[name].push(message);
          console.log(`${name} failed in round ${round + 1}: ${message}`);
        }
      }
    }
    const p50 = (name: Approach) => quantile(latencies[name].slice(-samples), 0.5).toFixed(2);
    console.log(`round ${round + 1}: p50 ${approachNames.map((name) => `${name} ${p50(name)} ms`).join(', ')}`);
  }
  loadAfter = await loadAverage();
  figures = Object.fromEntries(
    approachNames.map((name) => [
      name,
      { p50: quantile(latencies[name], 0.5), p99: quantile(latencies[name], 0.99), answers: latencies[name].length, failed: failures[name].length },
    ]),
  ) as Figures;
} finally {
  await server?.stop();
  await anvil.stop();
  await rm(fixture.root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}

const ratio = (fast: Approach, slow: Approach) => ({ p50: figures[slow].p50 / figures[fast].p50, p99: figures[slow].p99 / figures[fast].p99 });
const gatewayRatio = ratio('gateway', 'gatewayNaive');
const directRatio = ratio('direct', 'directNaive');
const row = (label: string, name: Approach) => `| ${label} | ${figures[name].p50.toFixed(2)} | ${figures[name].p99.toFixed(2)} | ${figures[name].failed} |`;
const ratioRow = (label: string, r: { p50: number; p99: number }) => `| ${label} | ${r.p50.toFixed(1)}× | ${r.p99.toFixed(1)}× | |`;
const gatewayTable = [
  '| through the gateway | p50 (ms) | p99 (ms) | failed answers |',
  '|---|---:|---:|---:|',
  row('`crucible_getTokenBalances` with the 50 contracts (one request)', 'gateway'),
  row(`naive: ${tokenCount} concurrent \`balanceOf\` eth_calls (one request each)`, 'gatewayNaive'),
  ratioRow('naive / crucible_getTokenBalances', gatewayRatio),
].join('\n');
const directTable = [
  '| straight to anvil | p50 (ms) | p99 (ms) | failed answers |',
  '|---|---:|---:|---:|',
  row('the token core (`getTokenBalances`: one aggregate3 eth_call, in this process)', 'direct'),
  row(`naive: ${tokenCount} concurrent \`balanceOf\` eth_calls`, 'directNaive'),
  ratioRow('naive / getTokenBalances', directRatio),
].join('\n');
console.log(`\n${gatewayTable}\n\n${directTable}\n`);

const cpu = await cpuModel();
const out = join(import.meta.dirname, 'out');
await mkdir(out, { recursive: true });
await writeFile(
  join(out, 'token-balances.json'),
  `${JSON.stringify({ tokens: tokenCount, samples, rounds, cpu, loadBefore: loadBefore!, loadAfter: loadAfter!, figures: figures!, gatewayRatio, directRatio }, null, 2)}\n`,
);
const failed = approachNames
  .filter((name) => failures[name].length > 0)
  .map((name) => `${name} ${failures[name].length} (${[...new Set(failures[name])].join(' | ')})`);
if (!quick && !args['no-write']) {
  const met = gatewayRatio.p50 >= TARGET && gatewayRatio.p99 >= TARGET;
  const shortfalls = [
    ...(gatewayRatio.p50 < TARGET ? [`p50 ${gatewayRatio.p50.toFixed(1)}×`] : []),
    ...(gatewayRatio.p99 < TARGET ? [`p99 ${gatewayRatio.p99.toFixed(1)}×`] : []),
  ];
  await writeBenchmarksSection(
    'Token balances',
    [
      '## Token balances',
      '',
      `The balances of one holder of ${tokenCount} ERC-20s (\`WorldToken\`s from the committed artifact, on an anvil with the local world's Multicall3), through the node gateway: \`crucible_getTokenBalances\` with the ${tokenCount} contracts against the naive peer approach, one \`balanceOf\` \`eth_call\` per token, all ${tokenCount} at once, as a client of an incumbent provider sends them.`,
      '',
      `- Command: \`npm run bench:tokens\` (${rounds} rotating rounds of ${samples} answers per approach after ${warmup} of each, one answer at a time; viem's http transport, keep-alive, no JSON-RPC batching). The gateway is the production server (\`node src/server/main.ts\` over a fixture build, as \`npm run bench:gateway\` starts it) with one app key (1,000,000 CU/s, a quota it never reaches), \`NODE_UPSTREAMS_${NETWORK.toUpperCase().replaceAll('-', '_')}\` at the anvil (chain ${CHAIN_ID}, automine, so the chain holds still), request logging off. Figures are p50/p99 over every answer of the rounds.`,
      `- Machine: ${cpus().length} CPUs (\`nproc\`), ${cpu}, Node ${process.version}; the client, the server and anvil share the machine`,
      `- 1-minute load average: ${loadBefore!.toFixed(2)} when measuring started${args['no-wait'] ? ' (not waited for: --no-wait)' : ''}, ${loadAfter!.toFixed(2)} at the end`,
      `- Date: ${new Date().toISOString().slice(0, 10)}`,
      '',
      gatewayTable,
      '',
      directTable,
      '',
      ...(failed.length ? [`Failed answers (not timed): ${failed.join('; ')}.`, ''] : []),
      `Target: through the gateway, \`crucible_getTokenBalances\` ≥ ${TARGET}× faster than the naive approach. ${met ? 'Met in this run at p50 and p99.' : `**Missed** in this run: ${shortfalls.join(', ')}.`}`,
      '',
    ].join('\n'),
  );
}

/** Deploys `count` ERC-20s (the world's WorldToken) whose whole supply goes to `holder`. */
async function deployTokens(holder: Address, count: number): Promise<Address[]> {
  const account = privateKeyToAccount(THIRD_PARTY_KEY);
  const { abi, bytecode } = ARTIFACTS.WorldToken;
  const hashes: Hex[] = [];
  const nonce = await anvil.client.getTransactionCount({ address: account.address });
  for (let i = 0; i < count; i++) {
    const args = [`Bench ${i}`, `B${i}`, 18, holder, parseUnits(String(1000 + i), 18)] as const;
    hashes.push(await anvil.client.deployContract({ abi, bytecode, args, account, chain: null, nonce: nonce + i }));
  }
  const receipts = await Promise.all(hashes.map((hash) => anvil.client.waitForTransactionReceipt({ hash })));
  return receipts.map((receipt) => receipt.contractAddress!);
}
