import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Alchemy } from 'alchemy-sdk';
import { createPublicClient, http, keccak256, numberToHex, parseEther, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { randomAddress, startRpcProxy, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { RpcSocket } from '../../support/rpc-socket.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// Private transactions (docs/json-rpc.md#private-transactions) through the production server
// (`node src/server/main.ts`) with the real alchemy-sdk 3.6.5 `transact` namespace, signed by viem.
// Three real anvils: one that mines every transaction at once, behind a proxy recording every call
// (so a refusal is shown to reach no upstream); one that mines only when a test says so, for the
// pending feeds, cancellation and maxBlockNumber; and one behind a proxy that refuses
// web3_clientVersion, a node that does not say it is anvil, to which the calls pass through.

const AUTOMINE = { network: 'base-sepolia', chainId: 84532 };
const MANUAL = { network: 'optimism-sepolia', chainId: 11155420 };
const OTHER_NODE = { network: 'arbitrum-sepolia', chainId: 421614 };
const wait = { timeout: 30_000, interval: 20 };

let dir: string;
let fixture: FixtureDist;
let server: BuiltSite;
let automine: TestAnvil;
let manual: TestAnvil;
let other: TestAnvil;
let automineProxy: { url: string; close(): Promise<void> };
let otherProxy: { url: string; close(): Promise<void> };
let key: string;
/** Every call each proxied upstream was sent, with its params. */
const automineCalls: Array<{ method: string; params: unknown[] }> = [];
const otherCalls: Array<{ method: string; params: unknown[] }> = [];

const nodeUrl = (network: string) => `${server.origin}/node/${network}/v2/${key}`;
const sdkOn = (network: string) => new Alchemy({ url: nodeUrl(network) });

async function rpc(network: string, method: string, params: unknown[]) {
  const response = await fetch(nodeUrl(network), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

/** A fresh account with 1 ETH on the chain: each test's nonces are its own. */
async function fundedAccount(on: TestAnvil): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await on.setBalance(account.address, parseEther('1'));
  return account;
}

/** A signed value transfer of 1 wei to a fresh address, at the account's next nonce unless `nonce` says otherwise. */
async function signedTransfer(on: TestAnvil, account: PrivateKeyAccount, options: { nonce?: number } = {}): Promise<Hex> {
  const request = await on.client.prepareTransactionRequest({ account, to: randomAddress(), value: 1n, chain: null, ...options });
  return account.signTransaction({ ...request, chainId: await on.client.getChainId() } as never);
}

/** The transaction as the node holds it (pending or mined), or null once it is gone. */
const transactionOn = (on: TestAnvil, hash: Hex) =>
  on.client.request({ method: 'eth_getTransactionByHash' as never, params: [hash] as never }) as Promise<{ hash: Hex; blockHash: Hex | null } | null>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-private-tx-'));
  [automine, manual, other] = await Promise.all([
    startTestAnvil({ chainId: AUTOMINE.chainId }),
    startTestAnvil({ chainId: MANUAL.chainId, extraArgs: ['--no-mining'] }),
    startTestAnvil({ chainId: OTHER_NODE.chainId }),
  ]);
  automineProxy = await startRpcProxy(automine.rpcUrl, async (call) => {
    automineCalls.push({ method: call.method, params: call.params });
    return undefined;
  });
  otherProxy = await startRpcProxy(other.rpcUrl, async (call) => {
    otherCalls.push({ method: call.method, params: call.params });
    return call.method === 'web3_clientVersion' ? { refuse: { code: -32601, message: 'the method web3_clientVersion does not exist' } } : undefined;
  });
  fixture = await writeFixtureDist();
  const databasePath = join(dir, 'crucible.sqlite');
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: [AUTOMINE.network, MANUAL.network, OTHER_NODE.network],
  });
  ({ key } = await apps.create({ name: 'private transactions test', computeUnitsPerSecond: 100_000 }));
  await database.close();
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: {
      DATABASE_PATH: databasePath,
      PRICES_IN_SERVER: 'off',
      NODE_UPSTREAMS_BASE_SEPOLIA: automineProxy.url,
      NODE_UPSTREAMS_OPTIMISM_SEPOLIA: manual.rpcUrl,
      NODE_UPSTREAMS_ARBITRUM_SEPOLIA: otherProxy.url,
    },
  });
});

afterAll(async () => {
  await server?.stop();
  await Promise.all([automineProxy?.close(), otherProxy?.close()]);
  await Promise.all([automine?.stop(), manual?.stop(), other?.stop()]);
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('on a devnet that mines every transaction', () => {
  it('sendPrivateTransaction answers the hash of the signed bytes, and the transaction is mined', async () => {
    const account = await fundedAccount(automine);
    const signed = await signedTransfer(automine, account);
    const before = automineCalls.length;
    const hash = await sdkOn(AUTOMINE.network).transact.sendPrivateTransaction(signed);
    expect(hash).toBe(keccak256(signed));
    const receipt = await createPublicClient({ transport: http(nodeUrl(AUTOMINE.network)) }).waitForTransactionReceipt({ hash: hash as Hex });
    expect(receipt.status).toBe('success');
    expect(receipt.from).toBe(account.address.toLowerCase());
    // The devnet is sent the transaction itself: it has no eth_sendPrivateTransaction.
    const sent = automineCalls.slice(before).filter((call) => call.method.startsWith('eth_send'));
    expect(sent).toEqual([{ method: 'eth_sendRawTransaction', params: [signed] }]);
  });

  it('maxBlockNumber and preferences are taken, and the crucible_ and alchemy_ names are the same method', async () => {
    const account = await fundedAccount(automine);
    const head = await automine.client.getBlockNumber();
    const first = await signedTransfer(automine, account, { nonce: 0 });
    expect(await sdkOn(AUTOMINE.network).transact.sendPrivateTransaction(first, Number(head) + 5, { fast: true })).toBe(keccak256(first));
    const second = await signedTransfer(automine, account, { nonce: 1 });
    expect(await rpc(AUTOMINE.network, 'crucible_sendPrivateTransaction', [{ tx: second }])).toMatchObject({ result: keccak256(second) });
    const third = await signedTransfer(automine, account, { nonce: 2 });
    expect(await rpc(AUTOMINE.network, 'alchemy_sendPrivateTransaction', [{ tx: third }])).toMatchObject({ result: keccak256(third) });
    await vi.waitFor(async () => expect(await automine.client.getTransactionCount({ address: account.address })).toBe(3), wait);
  });

  it('a maxBlockNumber already passed is refused with -32602 and nothing is sent', async () => {
    const account = await fundedAccount(automine);
    const signed = await signedTransfer(automine, account);
    const head = await automine.client.getBlockNumber();
    const answer = await rpc(AUTOMINE.network, 'eth_sendPrivateTransaction', [{ tx: signed, maxBlockNumber: numberToHex(head) }]);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('maxBlockNumber');
    expect(await automine.client.getTransactionCount({ address: account.address })).toBe(0);
  });

  it('bad params are refused with -32602 before any upstream call', async () => {
    const signed = await signedTransfer(automine, await fundedAccount(automine));
    const bad: Array<[string, unknown[]]> = [
      ['eth_sendPrivateTransaction', []],
      ['eth_sendPrivateTransaction', [signed]],
      ['eth_sendPrivateTransaction', [{}]],
      ['eth_sendPrivateTransaction', [{ tx: '0xzz' }]],
      ['eth_sendPrivateTransaction', [{ tx: '0x1234' }]],
      ['eth_sendPrivateTransaction', [{ tx: signed, maxBlockNumber: '12' }]],
      ['eth_sendPrivateTransaction', [{ tx: signed, maxBlockNumber: '0x012' }]],
      ['eth_sendPrivateTransaction', [{ tx: signed, preferences: { fast: 'yes' } }]],
      ['eth_sendPrivateTransaction', [{ tx: signed, nonsense: 1 }]],
      ['eth_cancelPrivateTransaction', [{ txHash: '0x1234' }]],
      ['eth_cancelPrivateTransaction', [keccak256(signed)]],
      ['crucible_cancelPrivateTransaction', [{}]],
    ];
    const before = automineCalls.length;
    for (const [method, params] of bad) {
      const answer = await rpc(AUTOMINE.network, method, params);
      expect(answer.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602);
    }
    // Earlier tests' transactions are still checked in the background: a call of this test's would name its transaction or a private method.
    const hash = keccak256(signed);
    const ofThisTest = automineCalls
      .slice(before)
      .filter(
        (call) =>
          /Private|sendRaw|clientVersion/.test(call.method) || JSON.stringify(call.params).includes(signed) || JSON.stringify(call.params).includes(hash),
      );
    expect(ofThisTest).toEqual([]);
  });
});

describe('on a devnet that mines when told', () => {
  const mine = () => manual.client.mine({ blocks: 1 });
  const wsUrl = () => nodeUrl(MANUAL.network).replace(/^http/, 'ws');

  it('a private transaction is on no pending feed while a public one is; both are mined', async () => {
    const socket = await RpcSocket.open(wsUrl());
    const whole = await socket.subscribe('alchemy_pendingTransactions');
    const hashes = await socket.subscribe('newPendingTransactions');
    const [privateSender, publicSender] = await Promise.all([fundedAccount(manual), fundedAccount(manual)]);
    const privateTx = await signedTransfer(manual, privateSender);
    const publicTx = await signedTransfer(manual, publicSender);

    const privateHash = (await sdkOn(MANUAL.network).transact.sendPrivateTransaction(privateTx)) as Hex;
    expect(privateHash).toBe(keccak256(privateTx));
    expect(await transactionOn(manual, privateHash)).toMatchObject({ blockHash: null });
    const publicHash = await sdkOn(MANUAL.network).core.send('eth_sendRawTransaction', [publicTx]);
    // The node announces in the order it took them: once the public one is heard, the private one would have been.
    await Promise.all([socket.until(whole, 1), socket.until(hashes, 1)]);
    const heard = (id: string) => socket.notifications(id).map((result) => (typeof result === 'string' ? result : (result as { hash: string }).hash));
    expect(heard(whole)).toEqual([publicHash]);
    expect(heard(hashes)).toEqual([publicHash]);

    await mine();
    const [privateReceipt, publicReceipt] = await Promise.all([
      manual.client.waitForTransactionReceipt({ hash: privateHash }),
      manual.client.waitForTransactionReceipt({ hash: publicHash as Hex }),
    ]);
    expect(privateReceipt.status).toBe('success');
    expect(publicReceipt.blockNumber).toBe(privateReceipt.blockNumber);
    // Mined: there is nothing left to cancel.
    expect(await sdkOn(MANUAL.network).transact.cancelPrivateTransaction(privateHash)).toBe(false);
    await socket.close();
  });

  it('cancelPrivateTransaction before mining answers true and the transaction is never mined', async () => {
    const account = await fundedAccount(manual);
    const signed = await signedTransfer(manual, account);
    const sdk = sdkOn(MANUAL.network);
    const hash = (await sdk.transact.sendPrivateTransaction(signed)) as Hex;
    expect(await transactionOn(manual, hash)).toMatchObject({ hash });

    expect(await sdk.transact.cancelPrivateTransaction(hash)).toBe(true);
    expect(await transactionOn(manual, hash)).toBeNull();
    await mine();
    expect(await manual.client.getTransactionCount({ address: account.address })).toBe(0);
    expect(await transactionOn(manual, hash)).toBeNull();
    // Cancelled already, and a hash never sent privately: nothing to cancel.
    expect(await sdk.transact.cancelPrivateTransaction(hash)).toBe(false);
    expect(await sdk.transact.cancelPrivateTransaction(keccak256(randomAddress()))).toBe(false);
  });

  it('a fast private transaction cannot be cancelled, and a public one is not cancelled', async () => {
    const [fastSender, publicSender] = await Promise.all([fundedAccount(manual), fundedAccount(manual)]);
    const fast = await signedTransfer(manual, fastSender);
    const sdk = sdkOn(MANUAL.network);
    const fastHash = (await sdk.transact.sendPrivateTransaction(fast, undefined, { fast: true })) as Hex;
    const publicHash = (await sdk.core.send('eth_sendRawTransaction', [await signedTransfer(manual, publicSender)])) as Hex;
    expect(await sdk.transact.cancelPrivateTransaction(fastHash)).toBe(false);
    expect(await sdk.transact.cancelPrivateTransaction(publicHash)).toBe(false);
    await mine();
    expect((await manual.client.waitForTransactionReceipt({ hash: fastHash })).status).toBe('success');
    expect((await manual.client.waitForTransactionReceipt({ hash: publicHash })).status).toBe('success');
  });

  it('a private transaction not mined by maxBlockNumber is dropped from the node', async () => {
    const account = await fundedAccount(manual);
    // A nonce gap keeps it out of the blocks mined meanwhile, as a transaction a builder passed over.
    const gapped = await signedTransfer(manual, account, { nonce: 1 });
    const head = await manual.client.getBlockNumber();
    const hash = (await sdkOn(MANUAL.network).transact.sendPrivateTransaction(gapped, Number(head) + 1)) as Hex;
    expect(await transactionOn(manual, hash)).toMatchObject({ hash, blockHash: null });
    await mine();
    // Block head+1 was its last chance: once a later block is mined it is dropped.
    expect(await transactionOn(manual, hash)).toMatchObject({ hash, blockHash: null });
    await mine();
    await vi.waitFor(async () => expect(await transactionOn(manual, hash)).toBeNull(), wait);

    // Filling the gap mines the first transaction alone.
    const first = await signedTransfer(manual, account, { nonce: 0 });
    await manual.client.sendRawTransaction({ serializedTransaction: first });
    await mine();
    expect(await manual.client.getTransactionCount({ address: account.address })).toBe(1);
    expect(await transactionOn(manual, hash)).toBeNull();
  });
});

describe('on a node that is not a devnet', () => {
  it('both calls pass through by their eth_ names, params as sent, and the node’s answer comes back', async () => {
    const account = await fundedAccount(other);
    const signed = await signedTransfer(other, account);
    const before = otherCalls.length;
    const sdk = sdkOn(OTHER_NODE.network);
    // anvil has no eth_sendPrivateTransaction: its refusal is the answer, and nothing is broadcast.
    await expect(sdk.transact.sendPrivateTransaction(signed, 1_000, { fast: true })).rejects.toThrow(/not found|not exist|unsupported/i);
    await expect(sdk.transact.cancelPrivateTransaction(keccak256(signed))).rejects.toThrow(/not found|not exist|unsupported/i);
    const sent = otherCalls.slice(before).filter((call) => call.method.endsWith('PrivateTransaction') || call.method === 'eth_sendRawTransaction');
    expect(sent).toEqual([
      { method: 'eth_sendPrivateTransaction', params: [{ tx: signed, maxBlockNumber: '0x3e8', preferences: { fast: true } }] },
      { method: 'eth_cancelPrivateTransaction', params: [{ txHash: keccak256(signed) }] },
    ]);
    expect(await other.client.getTransactionCount({ address: account.address as Address })).toBe(0);
  });
});
