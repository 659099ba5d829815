import { rm } from 'node:fs/promises';
import { Alchemy, Network, WebhookType } from 'alchemy-sdk';
import { encodeFunctionData, getAddress, parseEther, toHex, type Address, type Hash } from 'viem';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../../../src/chain/world/artifacts.ts';
import type { Database } from '../../../src/db/open.ts';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { until } from '../../support/crash.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { databaseEnv, prepareAccount, type NotifyAccount } from './notify-site.ts';
import { startReceiver, type TestReceiver } from './receiver.ts';

// ADDRESS_ACTIVITY's native transfers through the production server on both engines: ether sent to a
// listed address (external) and ether a contract's call passes on to one (internal, from the
// node's call traces: contracts/ValueForwarder.sol), each delivered signed in the incumbent's
// address-activity item, and again marked removed when a reorg undoes it. The webhook is made with
// alchemy-sdk's notify namespace; the chain is a real anvil, indexed by the server's own indexer.

const NETWORK = 'ethereum-sepolia';
const forwarderAbi = ARTIFACTS.ValueForwarder.abi;

let fixture: FixtureDist;
beforeAll(async () => {
  fixture = await writeFixtureDist();
});
afterAll(async () => {
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

interface NativeItem {
  fromAddress: string;
  toAddress: string;
  blockNum: string;
  hash: string;
  category: string;
  value: number | null;
  asset: string | null;
  rawContract: { rawValue: string; address: string | null; decimals: number | null };
  erc721TokenId: string | null;
  erc1155Metadata: unknown;
  log?: unknown;
  removed: boolean;
}

describe.each(databaseEngines())('ADDRESS_ACTIVITY native transfers through the server on $name', (engine) => {
  let anvil: TestAnvil;
  let server: BuiltSite;
  let database: Database;
  let account: NotifyAccount;
  let receiver: TestReceiver;
  let owner: Address;
  let alice: Address;
  let bob: Address;
  let carol: Address;
  let forwarder: Address;
  let hookId: string;
  beforeAll(async () => {
    anvil = await startTestAnvil({ chainId: sepolia.id });
    [owner, alice, bob, carol] = (await anvil.client.getAddresses()) as [Address, Address, Address, Address];
    const deployed = await anvil.client.deployContract({ abi: forwarderAbi, bytecode: ARTIFACTS.ValueForwarder.bytecode, account: owner, chain: null });
    forwarder = getAddress((await anvil.client.waitForTransactionReceipt({ hash: deployed })).contractAddress!);
    const location = await engine.location();
    ({ database, account } = await prepareAccount(location, [NETWORK]));
    receiver = await startReceiver();
    server = await startBuiltSite({
      distDir: fixture.distDir,
      env: {
        ...databaseEnv(location),
        NODE_UPSTREAMS_ETHEREUM_SEPOLIA: anvil.rpcUrl,
        INDEXER_IN_SERVER: 'on',
        INDEXER_NETWORKS: NETWORK,
        INDEXER_POLL_INTERVAL_MS: '50',
        INDEXER_REORG_WINDOW: '6',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50',
        PRICES_IN_SERVER: 'off',
        NFT_METADATA_IN_SERVER: 'off',
      },
    });
    const alchemy = new Alchemy({ url: `${server.origin}/api/notify`, authToken: account.token, network: Network.ETH_SEPOLIA, maxRetries: 1 });
    // alice hears ether sent to her; carol, ether the forwarder passes on to her. bob, who sends, is not listed.
    const hook = await alchemy.notify.createWebhook(receiver.url, WebhookType.ADDRESS_ACTIVITY, { addresses: [alice, carol] });
    receiver.keys.set(hook.id, hook.signingKey);
    hookId = hook.id;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await database?.close();
    await anvil?.stop();
  });

  async function send(tx: { from: Address; to: Address; value: bigint; data?: `0x${string}` }): Promise<{ hash: Hash; block: bigint }> {
    const hash = await anvil.client.sendTransaction({ account: tx.from, chain: null, ...tx });
    const receipt = await anvil.client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return { hash, block: receipt.blockNumber };
  }
  const itemsOf = () => receiver.received.filter((entry) => entry.payload.webhookId === hookId).map((entry) => entry.payload.event.activity as NativeItem[]);
  const deliveries = (count: number) => until(`${count} deliveries to the address webhook`, async () => itemsOf().length >= count && itemsOf());
  const native = (item: NativeItem) => [item.category, item.fromAddress, item.toAddress, item.rawContract.rawValue, item.removed];

  it('sends ether sent to a listed address and ether a call passed on to one, signed, in the incumbent’s shape; a reorg sends them again removed', async () => {
    const fork = await anvil.client.snapshot();
    const sent = await send({ from: owner, to: alice, value: parseEther('1') });
    const forwarded = await send({
      from: bob,
      to: forwarder,
      value: parseEther('0.3'),
      data: encodeFunctionData({ abi: forwarderAbi, functionName: 'forward', args: [[carol], [parseEther('0.3')]] }),
    });

    const before = await deliveries(2);
    expect(before.map((items) => items.length)).toEqual([1, 1]);
    const external = before[0]![0]!;
    const internal = before[1]![0]!;
    expect(external).toEqual({
      fromAddress: owner.toLowerCase(),
      toAddress: alice.toLowerCase(),
      blockNum: toHex(sent.block),
      hash: sent.hash,
      category: 'external',
      value: 1,
      asset: 'ETH',
      rawContract: { rawValue: toHex(parseEther('1')), address: null, decimals: 18 },
      erc721TokenId: null,
      erc1155Metadata: null,
      removed: false,
    });
    expect(internal).toEqual({
      fromAddress: forwarder.toLowerCase(),
      toAddress: carol.toLowerCase(),
      blockNum: toHex(forwarded.block),
      hash: forwarded.hash,
      category: 'internal',
      value: 0.3,
      asset: 'ETH',
      rawContract: { rawValue: toHex(parseEther('0.3')), address: null, decimals: 18 },
      erc721TokenId: null,
      erc1155Metadata: null,
      removed: false,
    });

    // Both blocks undone by a longer fork without them.
    await anvil.client.revert({ id: fork });
    await anvil.client.mine({ blocks: 3 });
    const after = await deliveries(4);
    expect(after.map((items) => items.map(native))).toEqual([
      [native(external)],
      [native(internal)],
      [native({ ...external, removed: true })],
      [native({ ...internal, removed: true })],
    ]);
    expect(after[2]![0]).toEqual({ ...external, removed: true });
    expect(after[3]![0]).toEqual({ ...internal, removed: true });
    const entries = receiver.received.filter((entry) => entry.payload.webhookId === hookId);
    expect(entries.every((entry) => entry.payload.type === 'ADDRESS_ACTIVITY' && entry.signatureValid && entry.timestampValid)).toBe(true);
  });
});
