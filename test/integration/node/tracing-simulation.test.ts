import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Alchemy, DebugTracerType } from 'alchemy-sdk';
import {
  createPublicClient,
  encodeFunctionData,
  erc1155Abi,
  erc20Abi,
  erc721Abi,
  http,
  maxUint256,
  numberToHex,
  parseEther,
  type Address,
  type Hex,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { DEMO_WALLET, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { worldHoldings } from '../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES, worldContract } from '../../../src/chain/world/manifest.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { randomAddress, startRpcProxy, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// Tracing and simulation (docs/tracing-and-simulation.md) through the production server (`node src/server/main.ts`)
// with the real alchemy-sdk 3.6.5 (`debug` and `transact` namespaces) and viem. Behind the gateway: a
// real anvil holding the local world (its ERC-20s, ERC-721, ERC-1155 and CryptoPunks-style NFT),
// reached through a proxy that records every call, so a refusal can be shown to reach no upstream
// and a simulation to broadcast nothing.

const NETWORK = 'base-sepolia';
/** The documented trace deadline this server runs with (NODE_UPSTREAM_TRACE_TIMEOUT_MS). */
const TRACE_DEADLINE_MS = 4_000;

let dir: string;
let fixture: FixtureDist;
let server: BuiltSite;
let chain: TestAnvil;
let proxy: { url: string; close(): Promise<void> };
let key: string;
/** Every call the upstream was sent, batches included, with its params. */
const upstreamCalls: Array<{ method: string; params: unknown[] }> = [];
/** A debug_traceCall whose `from` is this address is held at the proxy until the test lets it go. */
const HELD_SENDER = randomAddress();
let releaseHeld: () => void = () => {};
/** A transaction mined after the world: ada sends 7 FORGE to `minedRecipient`. */
let minedHash: Hex;
let minedBlock: bigint;
const minedRecipient = randomAddress();

const { ada } = WORLD_HOLDERS;
const forge = WORLD_ADDRESSES.forge;
const cusd = WORLD_ADDRESSES.cusd;
const lower = (address: string) => address.toLowerCase();
const nodeUrl = () => `${server.origin}/node/${NETWORK}/v2/${key}`;
const sdk = () => new Alchemy({ url: nodeUrl() });
const viemClient = () => createPublicClient({ transport: http(nodeUrl()) });

async function rpc(method: string, params: unknown[]) {
  const response = await fetch(nodeUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

/** The methods the upstream was sent while `run` ran, the pool's head probes left out. */
async function upstreamDuring(run: () => Promise<void>): Promise<string[]> {
  const before = upstreamCalls.length;
  await run();
  return upstreamCalls
    .slice(before)
    .map((call) => call.method)
    .filter((method) => method !== 'eth_blockNumber');
}

const call = (to: Address, data: Hex, from: Address = DEMO_WALLET) => ({ from, to, data });
const erc20Transfer = (token: Address, to: Address, amount: bigint, from: Address = DEMO_WALLET) =>
  call(token, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }), from);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-tracing-'));
  chain = await startTestAnvil({ chainId: 84532 });
  await deployWorld(chain.rpcUrl, { siteOrigin: 'http://localhost:4321', priceLayer: false });
  // One transaction mined after the world, to trace.
  await chain.client.impersonateAccount({ address: ada });
  minedHash = await chain.client.sendTransaction({ account: ada, chain: null, ...erc20Transfer(forge, minedRecipient, 7n * 10n ** 18n, ada) });
  minedBlock = (await chain.client.waitForTransactionReceipt({ hash: minedHash })).blockNumber;
  await chain.client.stopImpersonatingAccount({ address: ada });

  const held = new Promise<void>((resolve) => (releaseHeld = resolve));
  proxy = await startRpcProxy(chain.rpcUrl, async (item) => {
    upstreamCalls.push({ method: item.method, params: item.params });
    const from = (item.params[0] as { from?: string } | undefined)?.from;
    if (item.method === 'debug_traceCall' && from?.toLowerCase() === lower(HELD_SENDER)) {
      await held;
      return 'drop';
    }
    return undefined;
  });
  fixture = await writeFixtureDist();
  const databasePath = join(dir, 'crucible.sqlite');
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: [NETWORK],
  });
  // Room for every simulation of the file at once (a bundle costs 1,200 CU): no test waits on the rate.
  ({ key } = await apps.create({ name: 'tracing test', computeUnitsPerSecond: 100_000 }));
  await database.close();
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: {
      DATABASE_PATH: databasePath,
      NODE_UPSTREAMS_BASE_SEPOLIA: proxy.url,
      PRICES_IN_SERVER: 'off',
      NODE_UPSTREAM_TRACE_TIMEOUT_MS: String(TRACE_DEADLINE_MS),
      // Longer than the test may run: a held trace is only answered if its own deadline applies.
      NODE_UPSTREAM_TIMEOUT_MS: '600000',
    },
  });
});

afterAll(async () => {
  releaseHeld();
  await server?.stop();
  await Promise.all([proxy?.close(), chain?.stop()]);
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('debug traces through the alchemy-sdk debug namespace', () => {
  it('traceTransaction with the callTracer answers what the node traced: the FORGE transfer and its Transfer call', async () => {
    const trace = await sdk().debug.traceTransaction(minedHash, { type: DebugTracerType.CALL_TRACER, onlyTopCall: false }, '10s');
    const direct = await chain.client.request({ method: 'debug_traceTransaction' as never, params: [minedHash, { tracer: 'callTracer' }] as never });
    expect(trace).toEqual(direct);
    expect(trace).toMatchObject({ type: 'CALL', from: lower(ada), to: lower(forge) });
    expect(trace.input.slice(0, 10)).toBe('0xa9059cbb');
  });

  it('traceCall with the prestateTracer lists the accounts a call would touch, sender and token among them', async () => {
    const trace = await sdk().debug.traceCall(erc20Transfer(cusd, randomAddress(), 1n), 'latest', { type: DebugTracerType.PRESTATE_TRACER });
    expect(Object.keys(trace)).toEqual(expect.arrayContaining([lower(DEMO_WALLET), lower(cusd)]));
    expect(trace[lower(cusd)]!.storage).toBeDefined();
  });

  it('traceBlock by number answers one trace per transaction of the block, the mined transfer among them', async () => {
    const traces = (await sdk().debug.traceBlock(Number(minedBlock), { type: DebugTracerType.CALL_TRACER })) as unknown as Array<{
      txHash: string;
      result: { to: string };
    }>;
    const block = await viemClient().getBlock({ blockNumber: minedBlock });
    expect(traces.map((trace) => trace.txHash)).toEqual(block.transactions);
    expect(traces.find((trace) => trace.txHash === minedHash)?.result.to).toBe(lower(forge));
  });

  it('a tracer timeout longer than the trace deadline reaches the node cut to the deadline', async () => {
    const before = upstreamCalls.length;
    const answer = await rpc('debug_traceTransaction', [minedHash, { tracer: 'callTracer', timeout: '1h' }]);
    expect(answer.error).toBeUndefined();
    const sent = upstreamCalls.slice(before).find((item) => item.method === 'debug_traceTransaction');
    expect(sent?.params[1]).toEqual({ tracer: 'callTracer', timeout: `${TRACE_DEADLINE_MS}ms` });
  });

  it('a trace the node does not answer within the trace deadline is -32603, the node unanswered', async () => {
    const answer = await rpc('debug_traceCall', [{ from: HELD_SENDER, to: forge }, 'latest', { tracer: 'callTracer' }]);
    releaseHeld();
    expect(answer.error).toMatchObject({ code: -32603, message: expect.stringMatching(/upstream/i) });
  });
});

describe('parity traces', () => {
  it('trace_transaction and trace_block answer the mined transfer as the node traced it', async () => {
    const traces = (await rpc('trace_transaction', [minedHash])).result as Array<{ action: { to: string; from: string }; transactionHash: string }>;
    expect(traces[0]).toMatchObject({ action: { from: lower(ada), to: lower(forge) }, transactionHash: minedHash });
    const block = (await rpc('trace_block', [numberToHex(minedBlock)])).result as Array<{ transactionHash: string }>;
    expect(block.map((trace) => trace.transactionHash)).toContain(minedHash);
  });

  it('trace_filter to "latest" reaches the node as numbers (it takes no tags) and finds the transfer by callee', async () => {
    const sent = await upstreamDuring(async () => {
      const answer = await rpc('trace_filter', [{ fromBlock: numberToHex(minedBlock), toBlock: 'latest', toAddress: [forge] }]);
      expect((answer.result as Array<{ transactionHash: string }>).map((trace) => trace.transactionHash)).toContain(minedHash);
    });
    expect(sent).toContain('trace_filter');
    const filter = upstreamCalls.findLast((item) => item.method === 'trace_filter')!.params[0] as { fromBlock: string; toBlock: string };
    expect(filter.fromBlock).toBe(numberToHex(minedBlock));
    expect(filter.toBlock).toMatch(/^0x[0-9a-f]+$/);
    expect(BigInt(filter.toBlock)).toBeGreaterThanOrEqual(minedBlock);
  });
});

describe('refusals reach no upstream', () => {
  it.each([
    [
      'a JavaScript tracer',
      'debug_traceCall',
      [{ to: forge }, 'latest', { tracer: '{ data: [], fault: function() {}, result: function() { return this.data } }' }],
      'invalid params: [2] options.tracer must be "callTracer" or "prestateTracer": JavaScript tracers and the opcode logger are not served',
    ],
    [
      'no tracer (the opcode logger)',
      'debug_traceTransaction',
      [`0x${'ab'.repeat(32)}`, {}],
      'invalid params: [1] options.tracer must be "callTracer" or "prestateTracer": JavaScript tracers and the opcode logger are not served',
    ],
    [
      'the opcode logger’s options',
      'debug_traceBlockByNumber',
      ['latest', { tracer: 'callTracer', reexec: 1000000 }],
      'invalid params: [1] options has fields this method does not take: reexec',
    ],
    [
      'an unbounded trace_filter',
      'trace_filter',
      [{ toAddress: [`0x${'11'.repeat(20)}`] }],
      'invalid params: [0] filter.fromBlock is required: trace_filter reads a bounded range of blocks from the one you name',
    ],
    [
      'a trace_filter over the range limit',
      'trace_filter',
      [{ fromBlock: '0x0', toBlock: '0x2710' }],
      'invalid params: [0] filter spans 10001 blocks; trace_filter is limited to 10000 blocks per call (split the range)',
    ],
    [
      'an opcode trace',
      'trace_call',
      [{ to: forge }, ['vmTrace'], 'latest'],
      'invalid params: [1] traceTypes[0] must be "trace" or "stateDiff" ("vmTrace", an opcode trace, is not served)',
    ],
    [
      'a bad address',
      'alchemy_simulateAssetChanges',
      [{ from: DEMO_WALLET, to: '0x1234' }],
      'invalid params: [0] transaction.to must be a 20-byte address: "0x" and 40 hex digits',
    ],
    [
      'a bundle of four',
      'crucible_simulateExecutionBundle',
      [[{ to: forge }, { to: forge }, { to: forge }, { to: forge }]],
      'invalid params: [0] transactions must be a list of 1 to 3 transaction call objects',
    ],
  ])('%s is -32602 with its documented message', async (_, method, params, message) => {
    const sent = await upstreamDuring(async () => {
      expect((await rpc(method, params)).error).toEqual({ code: -32602, message });
    });
    expect(sent).toEqual([]);
  });

  it('every other debug_ method stays -32601, unsent', async () => {
    const sent = await upstreamDuring(async () => {
      for (const method of ['debug_setHead', 'debug_getRawBlock', 'debug_traceBlock']) {
        expect((await rpc(method, ['0x1'])).error).toMatchObject({
          code: -32601,
          message: expect.stringMatching(new RegExp(`^Unsupported method: ${method}\\.`)),
        });
      }
    });
    expect(sent).toEqual([]);
  });
});

describe('simulations through the alchemy-sdk transact namespace', () => {
  const holdings = worldHoldings().get(DEMO_WALLET)!;
  const relic = holdings.items.relics![0]!;
  const punk = holdings.items.punks![0]!;
  const [material, materialAmount] = [...holdings.materials.entries()].find(([, amount]) => amount >= 3n)!;
  const to = randomAddress();

  it('a native transfer: NATIVE, the amount in ether, the network’s currency as its token list names it', async () => {
    const { changes, gasUsed, error } = await sdk().transact.simulateAssetChanges({ from: DEMO_WALLET, to, value: numberToHex(parseEther('1.25')) });
    expect(error).toBeUndefined();
    expect(gasUsed).toBe('0x5208');
    expect(changes).toEqual([
      {
        assetType: 'NATIVE',
        changeType: 'TRANSFER',
        from: lower(DEMO_WALLET),
        to: lower(to),
        rawAmount: '1250000000000000000',
        amount: '1.25',
        decimals: 18,
        symbol: 'ETH',
        name: 'Ether',
        logo: expect.stringMatching(/\/tokens\/eth\.svg$/),
      },
    ]);
  });

  it('an ERC-20 transfer and an allowance, with the token’s decimals and symbol read from the chain', async () => {
    const [transfer] = (await sdk().transact.simulateAssetChanges(erc20Transfer(cusd, to, 1_500_000n))).changes;
    expect(transfer).toEqual({
      assetType: 'ERC20',
      changeType: 'TRANSFER',
      from: lower(DEMO_WALLET),
      to: lower(to),
      rawAmount: '1500000',
      amount: '1.5',
      contractAddress: lower(cusd),
      decimals: 6,
      symbol: 'cUSD',
      name: 'Crucible USD',
    });
    const approve = call(forge, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [to, maxUint256] }));
    expect((await sdk().transact.simulateAssetChanges(approve)).changes).toEqual([
      expect.objectContaining({
        assetType: 'ERC20',
        changeType: 'APPROVE',
        from: lower(DEMO_WALLET),
        to: lower(to),
        rawAmount: maxUint256.toString(),
        symbol: 'FORGE',
      }),
    ]);
    // An unlimited allowance has no amount; a limited one has it with the token's decimals.
    expect((await sdk().transact.simulateAssetChanges(approve)).changes[0]!.amount).toBeUndefined();
    const limited = call(forge, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [to, 25n * 10n ** 17n] }));
    expect((await sdk().transact.simulateAssetChanges(limited)).changes[0]).toMatchObject({
      changeType: 'APPROVE',
      rawAmount: '2500000000000000000',
      amount: '2.5',
      decimals: 18,
    });
  });

  it('ERC-721, ERC-1155 and legacy NFT transfers carry their token ids; the punk’s count Transfer is no ERC-20 move', async () => {
    const relics = WORLD_ADDRESSES.relics;
    const materials = WORLD_ADDRESSES.materials;
    const punks = WORLD_ADDRESSES.punks;
    const [relicMove] = (
      await sdk().transact.simulateAssetChanges(
        call(relics, encodeFunctionData({ abi: erc721Abi, functionName: 'safeTransferFrom', args: [DEMO_WALLET, to, relic] })),
      )
    ).changes;
    expect(relicMove).toEqual({
      assetType: 'ERC721',
      changeType: 'TRANSFER',
      from: lower(DEMO_WALLET),
      to: lower(to),
      contractAddress: lower(relics),
      tokenId: relic.toString(),
      decimals: 0,
      symbol: 'RELIC',
      name: 'Crucible Relics',
    });
    const [materialMove] = (
      await sdk().transact.simulateAssetChanges(
        call(materials, encodeFunctionData({ abi: erc1155Abi, functionName: 'safeTransferFrom', args: [DEMO_WALLET, to, material, 3n, '0x'] })),
      )
    ).changes;
    expect(materialMove).toMatchObject({
      assetType: 'ERC1155',
      changeType: 'TRANSFER',
      tokenId: material.toString(),
      rawAmount: '3',
      amount: '3',
      contractAddress: lower(materials),
    });
    expect(materialAmount).toBeGreaterThanOrEqual(3n);
    const punkMove = await sdk().transact.simulateAssetChanges(
      call(punks, encodeFunctionData({ abi: worldContract('punks').artifact.abi, functionName: 'transferPunk', args: [to, punk] })),
    );
    expect(punkMove.changes).toEqual([
      {
        assetType: 'SPECIAL_NFT',
        changeType: 'TRANSFER',
        from: lower(DEMO_WALLET),
        to: lower(to),
        contractAddress: lower(punks),
        tokenId: punk.toString(),
        decimals: 0,
        symbol: 'CPUNK',
        name: 'Crucible Punks',
      },
    ]);
  });

  it('an approval for all is told ERC-721 or ERC-1155 by the contract, without a token id; withdrawing it is rawAmount "0"', async () => {
    const forAll = (contract: Address, approved: boolean) =>
      call(contract, encodeFunctionData({ abi: erc721Abi, functionName: 'setApprovalForAll', args: [to, approved] }));
    const [onRelics] = (await sdk().transact.simulateAssetChanges(forAll(WORLD_ADDRESSES.relics, true))).changes;
    expect(onRelics).toMatchObject({ assetType: 'ERC721', changeType: 'APPROVE', to: lower(to), contractAddress: lower(WORLD_ADDRESSES.relics) });
    expect(onRelics!.tokenId).toBeUndefined();
    const [offMaterials] = (await sdk().transact.simulateAssetChanges(forAll(WORLD_ADDRESSES.materials, false))).changes;
    expect(offMaterials).toMatchObject({ assetType: 'ERC1155', changeType: 'APPROVE', rawAmount: '0', contractAddress: lower(WORLD_ADDRESSES.materials) });
  });

  it('a reverting transaction answers its error and no changes, not a failed request', async () => {
    const tooMuch = erc20Transfer(forge, to, maxUint256);
    const simulated = await sdk().transact.simulateAssetChanges(tooMuch);
    expect(simulated.changes).toEqual([]);
    expect(simulated.error?.message).toMatch(/revert/i);
    expect(simulated.gasUsed).toBeUndefined();
  });

  it('a bundle runs in order: what the first transaction gives, the second spends', async () => {
    const middle = randomAddress();
    const last = randomAddress();
    const [first, second] = await sdk().transact.simulateAssetChangesBundle([
      erc20Transfer(forge, middle, 5n * 10n ** 18n),
      erc20Transfer(forge, last, 2n * 10n ** 18n, middle),
    ]);
    expect(first!.changes).toEqual([expect.objectContaining({ from: lower(DEMO_WALLET), to: lower(middle), amount: '5' })]);
    // `middle` held no FORGE before the bundle: only the first transaction's effect lets it pay.
    expect(second!.error).toBeUndefined();
    expect(second!.changes).toEqual([expect.objectContaining({ from: lower(middle), to: lower(last), amount: '2', symbol: 'FORGE' })]);
    const alone = await sdk().transact.simulateAssetChanges(erc20Transfer(forge, last, 2n * 10n ** 18n, middle));
    expect(alone.error?.message).toMatch(/revert/i);
  });

  it('simulateExecution lists the calls and logs, decoded by the token standard', async () => {
    const { calls, logs } = await sdk().transact.simulateExecution(erc20Transfer(cusd, to, 42n));
    expect(calls[0]).toMatchObject({ type: 'CALL', from: lower(DEMO_WALLET), to: lower(cusd), decoded: { methodName: 'transfer', authority: 'CRUCIBLE' } });
    expect(calls[0]!.decoded!.inputs).toEqual([
      { name: 'recipient', type: 'address', value: lower(to) },
      { name: 'amount', type: 'uint256', value: '42' },
    ]);
    expect(calls[0]!.decoded!.outputs).toEqual([{ name: '', type: 'bool', value: 'true' }]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ address: lower(cusd), decoded: { eventName: 'Transfer', authority: 'CRUCIBLE' } });
    expect(logs[0]!.decoded!.inputs.map((input) => [input.name, input.value, input.indexed])).toEqual([
      ['from', lower(DEMO_WALLET), true],
      ['to', lower(to), true],
      ['value', '42', false],
    ]);
    const bundle = await sdk().transact.simulateExecutionBundle([erc20Transfer(cusd, to, 1n), { from: DEMO_WALLET, to, value: '0x1' }]);
    expect(bundle.map((execution) => execution.calls[0]!.to)).toEqual([lower(cusd), lower(to)]);
  });

  it('the crucible_ names answer as the alchemy_ ones', async () => {
    const transfer = erc20Transfer(cusd, to, 1n);
    const [own, alias] = await Promise.all([rpc('crucible_simulateAssetChanges', [transfer]), rpc('alchemy_simulateAssetChanges', [transfer])]);
    expect(own.result).toEqual(alias.result);
    expect((own.result as { changes: unknown[] }).changes).toHaveLength(1);
  });

  it('nothing is broadcast: the senders’ nonces and balances are as before, and no transaction reached the node', async () => {
    const client = viemClient();
    const read = async () =>
      Promise.all([
        client.getTransactionCount({ address: DEMO_WALLET }),
        client.getBalance({ address: DEMO_WALLET }),
        client.readContract({ address: forge, abi: erc20Abi, functionName: 'balanceOf', args: [DEMO_WALLET] }),
        client.getBlockNumber(),
      ]);
    const before = await read();
    const sent = await upstreamDuring(async () => {
      await sdk().transact.simulateAssetChanges({ from: DEMO_WALLET, to, value: numberToHex(parseEther('1')) });
      await sdk().transact.simulateAssetChangesBundle([erc20Transfer(forge, to, 10n ** 18n), { from: DEMO_WALLET, to, value: '0x1' }]);
      await sdk().transact.simulateExecution(erc20Transfer(forge, to, 10n ** 18n));
    });
    expect(sent.filter((method) => method.startsWith('eth_send'))).toEqual([]);
    expect(sent).toContain('debug_traceCall');
    expect(await read()).toEqual(before);
  });
});
