import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import solc from 'solc';
import {
  bytesToHex,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  keccak256,
  parseAbi,
  parseUnits,
  stringToHex,
  type Address,
  type Hex,
} from 'viem';
import { ARTIFACTS } from '../../src/chain/world/artifacts.ts';
import { rpc, rpcBatch } from './json-rpc.ts';

// Fills a fresh anvil with ERC-20 transfers for the indexer benchmark: `tokens` WorldTokens (the
// committed artifact) minted to holder 0, which funds every other holder with every token; then
// random transfers between holders until the chain holds `transfers` Transfer logs, mints
// included. Holders are addresses whose code (BenchHolder, set with anvil_setCode) sends when
// BenchTransfers asks, so `from` is the holder; each block is one transaction of `perBlock` transfers.
// The anvil must run with --no-mining: the fill mines each block itself.

export interface FillShape {
  /** Transfer logs on the chain when filled, the tokens' mints included. */
  transfers: number;
  holders: number;
  tokens: number;
  perBlock: number;
  seed: number;
}

export interface Filled {
  tokens: Address[];
  /** The chain's head once filled: the backfill's last block. */
  head: number;
  transactions: number;
  compileSeconds: number;
  fillSeconds: number;
}

const SALT = keccak256(stringToHex('crucible bench indexer holders'));
const FUNDING_UNITS = 1_000_000; // 1e18 wei of each token to each holder
const GAS_PER_TRANSFER = 80_000;
const BLOCK_GAS_LIMIT = 30_000_000;
const batchAbi = parseAbi(['function run(bytes32 salt, address[] tokens, bytes moves)']);

interface Move {
  from: number;
  token: number;
  to: number;
  units: number;
}

/** BenchTransfers.sol compiled with the solc npm package at the world's settings. */
async function compileBenchContracts(): Promise<{ holderCode: Hex; batchCreation: Hex }> {
  const source = await readFile(join(import.meta.dirname, 'BenchTransfers.sol'), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'BenchTransfers.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((message) => message.severity === 'error');
  if (errors.length > 0) throw new Error(`solc: ${errors.map((message) => message.formattedMessage).join('\n')}`);
  const contracts = output.contracts['BenchTransfers.sol']!;
  return { holderCode: `0x${contracts.BenchHolder!.evm.deployedBytecode.object}`, batchCreation: `0x${contracts.BenchTransfers!.evm.bytecode.object}` };
}

/** Holder i's address, as BenchTransfers.holderAt computes it. */
export function holderAddress(i: number): Address {
  return getAddress(`0x${keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [SALT, BigInt(i)])).slice(-40)}`);
}

/** A small seeded generator (mulberry32): the same transfers for the same seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function* movesOf(shape: FillShape): Generator<Move> {
  for (let token = 0; token < shape.tokens; token++) for (let to = 1; to < shape.holders; to++) yield { from: 0, token, to, units: FUNDING_UNITS };
  const funding = shape.tokens * (shape.holders - 1);
  const remaining = shape.transfers - shape.tokens - funding;
  if (remaining < 0) throw new Error(`${shape.transfers} transfers do not cover the ${shape.tokens} mints and ${funding} funding transfers`);
  const next = random(shape.seed);
  const pick = (n: number) => Math.floor(next() * n);
  for (let i = 0; i < remaining; i++) {
    const from = pick(shape.holders);
    const to = (from + 1 + pick(shape.holders - 1)) % shape.holders;
    yield { from, token: pick(shape.tokens), to, units: 1 + pick(1000) };
  }
}

function packed(moves: readonly Move[]): Hex {
  const bytes = new Uint8Array(moves.length * 8);
  const view = new DataView(bytes.buffer);
  moves.forEach((move, i) => {
    view.setUint16(i * 8, move.from);
    view.setUint8(i * 8 + 2, move.token);
    view.setUint16(i * 8 + 3, move.to);
    view.setUint8(i * 8 + 5, move.units >>> 16);
    view.setUint16(i * 8 + 6, move.units & 0xffff);
  });
  return bytesToHex(bytes);
}

export async function fillChain(rpcUrl: string, shape: FillShape, log: (line: string) => void): Promise<Filled> {
  if (shape.holders > 0xffff || shape.tokens > 0xff) throw new Error('at most 65,535 holders and 255 tokens');
  const compileStarted = performance.now();
  const { holderCode, batchCreation } = await compileBenchContracts();
  const compileSeconds = (performance.now() - compileStarted) / 1000;

  const started = performance.now();
  const [from] = await rpc<Address[]>(rpcUrl, 'eth_accounts');
  const hashes: Hex[] = [];
  // Mining is off (--no-mining): each transaction is mined into a block of its own by evm_mine; gas is given, so nothing is estimated.
  const send = async (tx: { to?: Address; data: Hex; gas: number }) => {
    const hash = await rpc<Hex>(rpcUrl, 'eth_sendTransaction', [{ from, ...tx, gas: `0x${tx.gas.toString(16)}` }]);
    await rpc(rpcUrl, 'evm_mine');
    hashes.push(hash);
    return hash;
  };
  const holders = Array.from({ length: shape.holders }, (_, i) => holderAddress(i));
  await rpcBatch(
    rpcUrl,
    holders.map((holder) => ({ method: 'anvil_setCode', params: [holder, holderCode] })),
  );

  const supply = parseUnits(String(FUNDING_UNITS), 12) * BigInt(shape.holders);
  const { abi, bytecode } = ARTIFACTS.WorldToken;
  const deployments: Hex[] = [];
  for (let i = 0; i < shape.tokens; i++) {
    const data = encodeDeployData({ abi, bytecode, args: [`Bench ${i}`, `BENCH${i}`, 18, holders[0]!, supply] });
    deployments.push(await send({ data, gas: 3_000_000 }));
  }
  const batchDeployment = await send({ data: batchCreation, gas: 3_000_000 });
  const created = await rpcBatch<{ contractAddress: Address; status: Hex } | null>(
    rpcUrl,
    [...deployments, batchDeployment].map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })),
  );
  if (created.some((receipt) => receipt?.status !== '0x1')) throw new Error('a bench contract was not deployed');
  const tokens = created.slice(0, shape.tokens).map((receipt) => receipt!.contractAddress);
  const batcher = created.at(-1)!.contractAddress;
  log(`  ${shape.tokens} tokens and the batch contract deployed, ${shape.holders} holders' code set`);

  const gas = Math.min(BLOCK_GAS_LIMIT, shape.perBlock * GAS_PER_TRANSFER);
  let block: Move[] = [];
  let sent = 0;
  const sendBlock = async () => {
    await send({ to: batcher, data: encodeFunctionData({ abi: batchAbi, functionName: 'run', args: [SALT, tokens, packed(block)] }), gas });
    const before = sent;
    sent += block.length;
    block = [];
    if (Math.floor(sent / 50_000) > Math.floor(before / 50_000)) log(`  ${sent + shape.tokens} transfers`);
  };
  for (const move of movesOf(shape)) {
    block.push(move);
    if (block.length === shape.perBlock) await sendBlock();
  }
  if (block.length > 0) await sendBlock();

  const receipts = await rpcBatch<{ status: Hex; logs: unknown[] } | null>(
    rpcUrl,
    hashes.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })),
  );
  const failed = receipts.filter((receipt) => receipt?.status !== '0x1').length;
  const logs = receipts.reduce((sum, receipt) => sum + (receipt?.logs.length ?? 0), 0);
  if (failed > 0 || logs !== shape.transfers) throw new Error(`the fill went wrong: ${failed} transactions failed, ${logs} logs instead of ${shape.transfers}`);
  const head = Number(await rpc<Hex>(rpcUrl, 'eth_blockNumber'));
  if (head !== hashes.length) throw new Error(`${hashes.length} transactions in ${head} blocks: one a block was meant`);
  return { tokens, head, transactions: hashes.length, compileSeconds, fillSeconds: (performance.now() - started) / 1000 };
}
