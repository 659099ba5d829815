import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Alchemy, AssetTransfersCategory, SortingOrder, type AssetTransfersResult } from 'alchemy-sdk';
import { createPublicClient, encodeFunctionData, erc20Abi, getAddress, http, parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../../src/apps/store.ts';
import { DEMO_WALLET, WORLD_DEPLOYER } from '../../../src/chain/world/actors.ts';
import { WORLD_HISTORY } from '../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES, WORLD_CONTRACTS } from '../../../src/chain/world/manifest.ts';
import { NATIVE_HISTORY, VALUE_FORWARDER } from '../../../src/chain/world/native-layer.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { randomAddress, startRpcProxy, startTestAnvil, THIRD_PARTY_KEY, type TestAnvil } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// crucible_getAssetTransfers (docs/token-data.md#crucible_getassettransfers) through the production server in local mode, on SQLite
// and PostgreSQL: the server starts base-sepolia's devnet, which deploys the local world (its native
// layer too), its indexer follows it, and alchemy-sdk 3.6.5 and plain fetch call {node_url}/v2/<key>.
// The world's history says what every category must list. ethereum-sepolia is indexed through a node
// without call traces (a proxy that refuses debug_*), so there "internal" is refused.

const NETWORK = 'base-sepolia';
const UNTRACED = 'ethereum-sepolia';
const ZERO: Address = '0x0000000000000000000000000000000000000000';
const APP_KEY_SECRET = randomBytes(32).toString('hex');
const ALL = Object.values(AssetTransfersCategory);

type Answer = { transfers: AssetTransfersResult[]; pageKey?: string };
type RpcReply = { result?: Answer; error?: { code: number; message: string } };

/** What a transfer says, in one line: category, from, contract, token ids, amounts (token ids and amounts decimal). */
function entryOf(transfer: AssetTransfersResult): string {
  const from = getAddress(transfer.from);
  const contract = transfer.rawContract.address ? getAddress(transfer.rawContract.address) : '';
  switch (transfer.category) {
    case 'external':
    case 'internal':
    case 'erc20':
      return `${transfer.category}|${from}|${contract}||${BigInt(transfer.rawContract.value!)}`;
    case 'erc1155':
      return `erc1155|${from}|${contract}|${transfer.erc1155Metadata!.map((entry) => BigInt(entry.tokenId)).join(',')}|${transfer.erc1155Metadata!.map((entry) => BigInt(entry.value)).join(',')}`;
    default:
      return `${transfer.category}|${from}|${contract}|${BigInt(transfer.tokenId!)}|1`;
  }
}

/** Contracts of the world, which have no receive function: ether sent to them is refused. */
const refusesEther = (address: Address) => WORLD_CONTRACTS.some((contract) => contract.address === address);

/** Every transfer to `address` (of a value above zero) that the world's history and its native layer make, as entryOf writes them. */
function worldTransfersTo(address: Address): string[] {
  const entries: string[] = [];
  const to = (recipient: Address, entry: string) => {
    if (recipient === address) entries.push(entry);
  };
  for (const step of WORLD_HISTORY.flat()) {
    switch (step.action) {
      case 'erc20-transfer':
        to(step.to, `erc20|${step.from}|${WORLD_ADDRESSES[step.token]}||${step.amount}`);
        break;
      case 'relic-mint':
        for (const id of step.ids) to(step.to, `erc721|${ZERO}|${WORLD_ADDRESSES.relics}|${id}|1`);
        break;
      case 'relic-transfer':
        to(step.to, `erc721|${step.from}|${WORLD_ADDRESSES.relics}|${step.id}|1`);
        break;
      case 'material-mint':
        to(step.to, `erc1155|${ZERO}|${WORLD_ADDRESSES.materials}|${step.ids.join(',')}|${step.amounts.join(',')}`);
        break;
      case 'material-transfer':
        to(step.to, `erc1155|${step.from}|${WORLD_ADDRESSES.materials}|${step.id}|${step.amount}`);
        break;
      case 'punk-assign':
        for (const id of step.ids) to(step.to, `specialnft|${ZERO}|${WORLD_ADDRESSES.punks}|${id}|1`);
        break;
      case 'punk-transfer':
        to(step.to, `specialnft|${step.from}|${WORLD_ADDRESSES.punks}|${step.id}|1`);
        break;
      case 'airdrop':
        for (const [i, recipient] of step.recipients.entries()) to(recipient, `erc721|${ZERO}|${WORLD_ADDRESSES.airdrop}|${i + 1}|1`);
        break;
      case 'set-base-uri':
        break;
    }
  }
  const forwarder = VALUE_FORWARDER.address;
  for (const step of NATIVE_HISTORY.flat()) {
    if (step.action === 'send') {
      to(step.to, `external|${step.from}|||${step.amount}`);
      continue;
    }
    const total = step.amounts.reduce((sum, amount) => sum + amount, 0n);
    to(forwarder, `external|${step.from}|||${total}`);
    if (step.action === 'relay') to(forwarder, `internal|${forwarder}|||${total}`);
    step.recipients.forEach((recipient, i) => {
      if (!refusesEther(recipient)) to(recipient, `internal|${forwarder}|||${step.amounts[i]}`);
    });
  }
  return entries.sort();
}

describe.each(databaseEngines())('crucible_getAssetTransfers through the production server on $name', (engine) => {
  let fixture: FixtureDist;
  let untraced: TestAnvil;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let server: BuiltSite;
  let key: string;
  const nodeUrl = (network = NETWORK) => `${server.origin}/node/${network}/v2/${key}`;
  const viem = () => createPublicClient({ transport: http(nodeUrl()) });

  async function rpc(request: unknown, network = NETWORK): Promise<RpcReply> {
    const response = await fetch(nodeUrl(network), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'alchemy_getAssetTransfers', params: [request] }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as RpcReply;
  }
  const transfers = async (request: Record<string, unknown>, network = NETWORK) => {
    const reply = await rpc(request, network);
    expect(reply.error).toBeUndefined();
    return reply.result!;
  };

  /** Resolves once each network's index holds its chain's head as it stands now. */
  async function waitForIndex(): Promise<void> {
    const heads = new Map([
      [NETWORK, Number(await viem().getBlockNumber({ cacheTime: 0 }))],
      [UNTRACED, Number(await untraced.client.getBlockNumber({ cacheTime: 0 }))],
    ]);
    await vi.waitFor(
      async () => {
        const status = (await (await fetch(`${server.origin}/api/indexer/status`)).json()) as {
          networks: Array<{ network: string; indexedBlock: number | null }>;
        };
        for (const [network, head] of heads) expect(status.networks.find((entry) => entry.network === network)?.indexedBlock).toBeGreaterThanOrEqual(head);
      },
      { timeout: 90_000, interval: 250 },
    );
  }

  beforeAll(async () => {
    fixture = await writeFixtureDist();
    const location = await engine.location();
    const database = await openDatabase(location);
    const apps = createAppStore(database, { keySecret: Buffer.from(APP_KEY_SECRET, 'hex'), networks: [NETWORK, UNTRACED] });
    ({ key } = await apps.create({ name: 'asset transfers', computeUnitsPerSecond: 1_000_000 }));
    await database.close();

    // ethereum-sepolia's node: an anvil of that chain id behind a proxy that answers debug_* as geth without the debug API.
    untraced = await startTestAnvil({ chainId: 11155111 });
    const [sender] = await untraced.client.getAddresses();
    await untraced.client.waitForTransactionReceipt({
      hash: await untraced.client.sendTransaction({ account: sender!, chain: null, to: DEMO_WALLET, value: parseEther('2') }),
    });
    proxy = await startRpcProxy(untraced.rpcUrl, async (call) =>
      call.method.startsWith('debug_') ? { refuse: { code: -32601, message: `the method ${call.method} does not exist/is not available` } } : undefined,
    );

    server = await startBuiltSite({
      distDir: fixture.distDir,
      env: {
        ...(location.engine === 'postgres' ? { DATABASE_URL: location.url } : { DATABASE_PATH: location.path }),
        APP_KEY_SECRET,
        ANVIL_BLOCK_TIME: '1',
        INDEXER_IN_SERVER: 'on',
        INDEXER_NETWORKS: `${NETWORK},${UNTRACED}`,
        INDEXER_POLL_INTERVAL_MS: '200',
        NODE_UPSTREAMS_ETHEREUM_SEPOLIA: proxy.url,
      },
    });
    await waitForIndex();
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await untraced?.stop();
    if (fixture) await rm(fixture.root, { recursive: true, force: true });
  });

  it("lists exactly the world's transfers to the demo wallet in every category, through alchemy-sdk", async () => {
    const alchemy = new Alchemy({ url: nodeUrl() });
    const answer = await alchemy.core.getAssetTransfers({ toAddress: DEMO_WALLET, category: ALL });
    expect(answer.pageKey).toBeUndefined();
    expect(answer.transfers.map(entryOf).sort()).toEqual(worldTransfersTo(DEMO_WALLET));
    for (const category of ALL)
      expect(
        answer.transfers.some((transfer) => transfer.category === category),
        category,
      ).toBe(true);
    // Oldest first by default, each unique.
    const blocks = answer.transfers.map((transfer) => Number(transfer.blockNum));
    expect(blocks).toEqual([...blocks].sort((a, b) => a - b));
    expect(new Set(answer.transfers.map((transfer) => transfer.uniqueId)).size).toBe(answer.transfers.length);
    // The forwarder: what it was sent, and what it relayed to itself.
    const forwarded = await alchemy.core.getAssetTransfers({
      toAddress: VALUE_FORWARDER.address,
      category: [AssetTransfersCategory.EXTERNAL, AssetTransfersCategory.INTERNAL],
    });
    expect(forwarded.transfers.map(entryOf).sort()).toEqual(worldTransfersTo(VALUE_FORWARDER.address));
    // FORGE refused its ether: that call reverted, so it is no transfer.
    expect((await transfers({ toAddress: WORLD_ADDRESSES.forge, category: ['internal', 'external'] })).transfers).toEqual([]);
  });

  it("writes each category in the incumbent's shape: amounts by decimals, symbols, ids as 32-byte words", async () => {
    const { transfers: listed } = await transfers({ toAddress: DEMO_WALLET, category: ALL });
    const receipt = async (hash: string) => viem().getTransactionReceipt({ hash: hash as Hex });
    const external = listed.find((transfer) => transfer.category === 'external')!;
    expect(external).toEqual({
      blockNum: `0x${(await receipt(external.hash)).blockNumber.toString(16)}`,
      uniqueId: `${external.hash}:external`,
      hash: external.hash,
      from: NATIVE_HISTORY[0]![0]!.from.toLowerCase(),
      to: DEMO_WALLET.toLowerCase(),
      value: 1.5,
      erc721TokenId: null,
      erc1155Metadata: null,
      tokenId: null,
      asset: 'ETH',
      category: 'external',
      rawContract: { value: '0x14d1120d7b160000', address: null, decimal: '0x12' },
    });
    const internal = listed.find((transfer) => transfer.category === 'internal')!;
    expect(internal).toMatchObject({
      uniqueId: expect.stringMatching(new RegExp(`^${internal.hash}:internal:[1-9]\\d*$`)),
      from: VALUE_FORWARDER.address.toLowerCase(),
      asset: 'ETH',
    });
    const token = (id: 'forge' | 'cusd' | 'bare') => listed.find((transfer) => transfer.rawContract.address === WORLD_ADDRESSES[id].toLowerCase())!;
    expect(token('forge')).toMatchObject({
      value: 1250.5,
      asset: 'FORGE',
      category: 'erc20',
      rawContract: { decimal: '0x12' },
      uniqueId: expect.stringMatching(/:log:\d+$/),
    });
    expect(token('forge').rawContract.value).toMatch(/^0x[0-9a-f]{64}$/);
    expect(token('cusd')).toMatchObject({ value: 2500.75, asset: 'cUSD', rawContract: { decimal: '0x6' } });
    // A token without decimals or symbol: no value, no asset, the raw amount still there.
    expect(token('bare')).toMatchObject({ value: null, asset: null, rawContract: { decimal: null, value: expect.stringMatching(/^0x0{40}/) } });
    const relic = listed.find(
      (transfer) =>
        transfer.category === 'erc721' && transfer.rawContract.address === WORLD_ADDRESSES.relics.toLowerCase() && BigInt(transfer.tokenId!) === 100n,
    )!;
    expect(relic).toMatchObject({
      value: null,
      asset: 'RELIC',
      erc721TokenId: `0x${'0'.repeat(62)}64`,
      tokenId: `0x${'0'.repeat(62)}64`,
      rawContract: { value: null, decimal: null },
    });
    const batch = listed.find((transfer) => transfer.category === 'erc1155' && transfer.erc1155Metadata!.length === 3)!;
    expect(batch.erc1155Metadata).toEqual([
      { tokenId: `0x${'0'.repeat(63)}1`, value: '0xa' },
      { tokenId: `0x${'0'.repeat(63)}2`, value: '0xfa' },
      { tokenId: `0x${'0'.repeat(63)}3`, value: '0x1' },
    ]);
    expect(batch).toMatchObject({ tokenId: null, erc721TokenId: null, value: null });
    expect(listed.find((transfer) => transfer.category === 'specialnft')).toMatchObject({
      erc721TokenId: null,
      tokenId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      asset: 'CPUNK',
    });
  });

  it('pages to the end with pageKey and maxCount, in either order; withMetadata gives each block’s time', async () => {
    const alchemy = new Alchemy({ url: nodeUrl() });
    const whole = (await alchemy.core.getAssetTransfers({ toAddress: DEMO_WALLET, category: ALL })).transfers;
    for (const order of [SortingOrder.ASCENDING, SortingOrder.DESCENDING]) {
      const pages: Answer[] = [];
      let pageKey: string | undefined;
      do {
        const page: Answer = await alchemy.core.getAssetTransfers({
          toAddress: DEMO_WALLET,
          category: ALL,
          order,
          maxCount: 3,
          withMetadata: true,
          ...(pageKey && { pageKey }),
        });
        expect(page.transfers.length).toBeLessThanOrEqual(3);
        pages.push(page);
        pageKey = page.pageKey;
      } while (pageKey);
      expect(pages.length).toBe(Math.ceil(whole.length / 3));
      const read = pages.flatMap((page) => page.transfers);
      const expected = order === SortingOrder.ASCENDING ? whole : [...whole].reverse();
      expect(read.map((transfer) => transfer.uniqueId)).toEqual(expected.map((transfer) => transfer.uniqueId));
      for (const transfer of read.slice(0, 4)) {
        const block = await viem().getBlock({ blockNumber: BigInt(transfer.blockNum) });
        expect((transfer as AssetTransfersResult & { metadata: { blockTimestamp: string } }).metadata).toEqual({
          blockTimestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
        });
      }
    }
    // A block range and contract filter narrow it; fromAddress and toAddress together are both required.
    const relics = await transfers({ toAddress: DEMO_WALLET, category: ['erc721'], contractAddresses: [WORLD_ADDRESSES.relics] });
    expect(relics.transfers.map(entryOf).sort()).toEqual(worldTransfersTo(DEMO_WALLET).filter((entry) => entry.includes(`|${WORLD_ADDRESSES.relics}|`)));
    const gifts = await transfers({ fromAddress: WORLD_DEPLOYER, toAddress: DEMO_WALLET, category: ['erc20'] });
    expect(gifts.transfers.map(entryOf).sort()).toEqual(worldTransfersTo(DEMO_WALLET).filter((entry) => entry.startsWith(`erc20|${WORLD_DEPLOYER}|`)));
    const last = Number(whole.at(-1)!.blockNum);
    const tail = await transfers({ toAddress: DEMO_WALLET, category: ALL, fromBlock: `0x${last.toString(16)}` });
    expect(tail.transfers.map((transfer) => transfer.uniqueId)).toEqual(
      whole.filter((transfer) => Number(transfer.blockNum) === last).map((transfer) => transfer.uniqueId),
    );
  });

  it('never lists a reverted transaction’s transfers, nor those of a call that reverted inside one that succeeded', async () => {
    const client = viem();
    const account = privateKeyToAccount(THIRD_PARTY_KEY);
    const recipient = randomAddress();
    const forwarder = VALUE_FORWARDER.artifact.abi;
    const chainId = await client.getChainId();
    let nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const { baseFeePerGas } = await client.getBlock();
    const sendRaw = async (tx: { to: Address; value?: bigint; data?: Hex; gas: bigint }) => {
      const signed = await account.signTransaction({
        ...tx,
        chainId,
        nonce: nonce++,
        maxFeePerGas: baseFeePerGas! * 4n + 10n ** 9n,
        maxPriorityFeePerGas: 10n ** 9n,
        type: 'eip1559',
      });
      const hash = await client.sendRawTransaction({ serializedTransaction: signed });
      return client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    };
    const shares = [recipient, WORLD_ADDRESSES.forge];
    const amounts = [parseEther('0.01'), parseEther('0.02')];
    // forward reverts as a whole when one recipient refuses; forwardAllowingRefusals only that call.
    const reverted = await sendRaw({
      to: VALUE_FORWARDER.address,
      value: parseEther('0.03'),
      data: encodeFunctionData({ abi: forwarder, functionName: 'forward', args: [shares, amounts] }),
      gas: 300_000n,
    });
    const partly = await sendRaw({
      to: VALUE_FORWARDER.address,
      value: parseEther('0.03'),
      data: encodeFunctionData({ abi: forwarder, functionName: 'forwardAllowingRefusals', args: [shares, amounts] }),
      gas: 300_000n,
    });
    const plain = await sendRaw({ to: recipient, value: parseEther('0.005'), gas: 21_000n });
    // An ERC-20 transfer of tokens the sender does not have.
    const overdrawn = await sendRaw({
      to: WORLD_ADDRESSES.forge,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, 1n] }),
      gas: 100_000n,
    });
    expect([reverted.status, partly.status, plain.status, overdrawn.status]).toEqual(['reverted', 'success', 'success', 'reverted']);
    await waitForIndex();

    const received = await transfers({ toAddress: recipient, category: ALL, excludeZeroValue: false });
    expect(received.transfers.map((transfer) => [transfer.category, transfer.hash, transfer.value])).toEqual([
      ['internal', partly.transactionHash, 0.01],
      ['external', plain.transactionHash, 0.005],
    ]);
    const sent = await transfers({ fromAddress: account.address, category: ALL, excludeZeroValue: false });
    expect(sent.transfers.map((transfer) => transfer.hash)).toEqual([partly.transactionHash, plain.transactionHash]);
  });

  it('refuses bad input with -32602 naming the field, before anything is read', async () => {
    const refused = async (request: unknown, message: string) => {
      const reply = await rpc(request);
      expect(reply.error).toEqual({ code: -32602, message: `invalid params: ${message}` });
    };
    await refused({ fromAddress: '0x123', category: ['erc20'] }, '[0] request.fromAddress must be a 20-byte address: "0x" and 40 hex digits');
    await refused(
      { toAddress: DEMO_WALLET, category: ['erc777'] },
      '[0] request.category[0] must be a list of 1 to 6 of "external", "internal", "erc20", "erc721", "erc1155", "specialnft"',
    );
    await refused({ toAddress: DEMO_WALLET, category: ['erc20'], maxCount: '0x3e9' }, '[0] request.maxCount must be a hex quantity from 0x1 to 0x3e8 (1,000)');
    await refused(
      { toAddress: DEMO_WALLET, category: ['erc20'], fromBlock: '0x20', toBlock: '0x10' },
      '[0] request fromBlock (32) must not be after toBlock (16)',
    );
    await refused(
      { toAddress: DEMO_WALLET, category: ['erc20'], pageKey: 'abc' },
      '[0] request.pageKey must be the pageKey of an earlier answer of this method',
    );
    // The SDK surfaces the same refusal.
    const alchemy = new Alchemy({ url: nodeUrl() });
    await expect(alchemy.core.getAssetTransfers({ toAddress: DEMO_WALLET, category: ALL, maxCount: 1001 })).rejects.toMatchObject({
      error: { code: -32602, message: expect.stringContaining('[0] request.maxCount') },
    });
    // A pageKey read in one order does not continue the other.
    const { pageKey } = await transfers({ toAddress: DEMO_WALLET, category: ALL, maxCount: '0x1' });
    await refused(
      { toAddress: DEMO_WALLET, category: ALL, maxCount: '0x1', order: 'desc', pageKey },
      '[0] request.pageKey was given for order "asc", not "desc"',
    );
  });

  it('on a network whose node offers no call traces: "internal" refused with a sentence, external transfers listed', async () => {
    const reply = await rpc({ toAddress: DEMO_WALLET, category: ['external', 'internal'] }, UNTRACED);
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toMatch(/"internal" cannot be answered on ethereum-sepolia: its node offers no call traces/);
    const external = await transfers({ toAddress: DEMO_WALLET, category: ['external'] }, UNTRACED);
    expect(external.transfers.map((transfer) => [transfer.category, transfer.value, transfer.asset])).toEqual([['external', 2, 'ETH']]);
  });
});
