import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPublicClient, erc20Abi, http, parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ARTIFACTS } from '../src/chain/world/artifacts.ts';
import { deployWorld } from '../src/chain/world/deploy.ts';
import { getTokenBalances } from '../src/tokens/balances.ts';
import type { TokenIndex } from '../src/tokens/ports.ts';
import { viemTokenChain } from '../src/tokens/viem-chain.ts';
import { randomAddress, startTestAnvil, THIRD_PARTY_KEY } from '../test/support/anvil.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage } from './build/measure.ts';

// `npm run bench:tokens [-- --tokens <n>] [--samples <n>] [--rounds <n>] [--write]`: the balances of
// a holder of 50 ERC-20s, read by the token core (getTokenBalances with the list of the 50: one
// aggregate3 eth_call at one block) against the naive way (one balanceOf eth_call per token, all
// 50 at once with viem's readContract), on the same anvil over the same kind of HTTP client. One
// answer at a time; the two alternate in rounds so both see the same machine. p50/p99 per answer
// and their ratio; figures to bench/out/token-balances.json, and with --write to the
// `## Token balances` section of BENCHMARKS.md.

const { values: args } = parseArgs({
  options: {
    tokens: { type: 'string', default: '50' },
    samples: { type: 'string', default: '400' },
    rounds: { type: 'string', default: '5' },
    write: { type: 'boolean' },
  },
});
const tokenCount = Number(args.tokens);
const samples = Number(args.samples);
const rounds = Number(args.rounds);
const warmup = 50;

const anvil = await startTestAnvil({ chainId: 7357001 });
try {
  // The world brings Multicall3; the holder's tokens are 50 more ERC-20s minted to it at deployment.
  await deployWorld(anvil.rpcUrl, { siteOrigin: 'http://localhost:4321' });
  const holder = randomAddress();
  const tokens = await deployTokens(holder, tokenCount);

  const client = () => createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0 }) });
  const chain = viemTokenChain(client());
  const naive = client();
  // Not asked: the list names the contracts.
  const noIndex: TokenIndex = { tokensOfHolder: () => Promise.reject(new Error('the benchmark passes its contracts')) };

  const approaches = {
    multicall: async () => {
      const answer = await getTokenBalances(chain, noIndex, [holder, tokens]);
      if (answer.tokenBalances.some((entry) => entry.tokenBalance === null)) throw new Error('a balance failed');
    },
    naive: async () => {
      await Promise.all(tokens.map((address) => naive.readContract({ address, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })));
    },
  };

  console.log(`${tokenCount} tokens, ${rounds} rounds of ${samples} answers per approach, load ${(await loadAverage()).toFixed(2)}`);
  for (const run of Object.values(approaches)) for (let i = 0; i < warmup; i++) await run();
  const latencies: Record<keyof typeof approaches, number[]> = { multicall: [], naive: [] };
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so neither always follows the other.
    const order = (round % 2 === 0 ? ['multicall', 'naive'] : ['naive', 'multicall']) as Array<keyof typeof approaches>;
    for (const name of order) {
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        await approaches[name]();
        latencies[name].push(performance.now() - started);
      }
    }
    const thisRound = (values: number[]) => quantile(values.slice(-samples), 0.5).toFixed(2);
    console.log(`round ${round + 1}: p50 multicall ${thisRound(latencies.multicall)} ms, naive ${thisRound(latencies.naive)} ms`);
  }

  const figures = Object.fromEntries(
    Object.entries(latencies).map(([name, values]) => [name, { p50: quantile(values, 0.5), p99: quantile(values, 0.99), answers: values.length }]),
  ) as Record<keyof typeof approaches, { p50: number; p99: number; answers: number }>;
  const ratio = { p50: figures.naive.p50 / figures.multicall.p50, p99: figures.naive.p99 / figures.multicall.p99 };
  const cpu = await cpuModel();
  const table = [
    '| approach | p50 (ms) | p99 (ms) |',
    '|---|---|---|',
    `| getTokenBalances: one aggregate3 eth_call | ${figures.multicall.p50.toFixed(2)} | ${figures.multicall.p99.toFixed(2)} |`,
    `| naive: ${tokenCount} concurrent balanceOf eth_calls | ${figures.naive.p50.toFixed(2)} | ${figures.naive.p99.toFixed(2)} |`,
    `| naive / getTokenBalances | ${ratio.p50.toFixed(1)}× | ${ratio.p99.toFixed(1)}× |`,
  ].join('\n');
  console.log(`\n${table}\n`);

  const out = join(import.meta.dirname, 'out');
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'token-balances.json'), `${JSON.stringify({ tokens: tokenCount, samples, rounds, cpu, figures, ratio }, null, 2)}\n`);
  if (args.write) {
    await writeBenchmarksSection(
      'Token balances',
      [
        '## Token balances',
        '',
        `- Command: \`npm run bench:tokens\` (${tokenCount} tokens held by one address, ${rounds} alternating rounds of ${samples} answers per approach after ${warmup} of each, one answer at a time, straight to anvil). CPU: ${cpu}.`,
        '',
        table,
        '',
      ].join('\n'),
    );
  }
} finally {
  await anvil.stop();
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

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
