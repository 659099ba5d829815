import { hexToNumber, parseEther, parseTransaction, recoverTransactionAddress, type Address, type Hex, type TransactionSerialized } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_DEPLOYER, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import type { WorldCall } from '../../../src/chain/world/history.ts';
import { connectAnvil, createWorldSender } from '../../../src/chain/world/sender.ts';
import { randomAddress, startRpcProxy, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';

// The world sender on an automining anvil, through a proxy that notes, as each transaction reaches the
// node, its nonce beside the sender's mined nonce. anvil files a transaction whose predecessor is not
// mined yet as waiting for it, and one whose predecessor is mined while it is being added waits in the
// pool for good (the world's install then stopped with "not mined after 20 blocks" on a busy machine).
// So each transaction must reach the node with its sender's previous one already mined: then it waits
// for nothing, whatever the node's timing.

let anvil: TestAnvil;
let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
const sends: { from: Address; to: Address; nonce: number; mined: number }[] = [];

beforeAll(async () => {
  anvil = await startTestAnvil({ chainId: 31337 });
  proxy = await startRpcProxy(anvil.rpcUrl, async (call) => {
    let sent: { from: Address; to: Address; nonce: number } | undefined;
    if (call.method === 'eth_sendRawTransaction') {
      const serialized = call.params[0] as TransactionSerialized;
      const { to, nonce } = parseTransaction(serialized);
      sent = { from: await recoverTransactionAddress({ serializedTransaction: serialized }), to: to!, nonce: nonce! };
    }
    if (call.method === 'eth_sendTransaction') {
      const request = call.params[0] as { from: Address; to: Address; nonce: Hex };
      sent = { from: request.from, to: request.to, nonce: hexToNumber(request.nonce) };
    }
    if (sent) sends.push({ ...sent, mined: await anvil.client.getTransactionCount({ address: sent.from, blockTag: 'latest' }) });
    return undefined;
  });
  await Promise.all([WORLD_DEPLOYER, WORLD_HOLDERS.ada].map((address) => anvil.setBalance(address, parseEther('10'))));
});

afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
});

describe('the world sender', () => {
  it("sends each transaction once its sender's previous one is mined, keeping each sender's order within a round", async () => {
    const recipients = Array.from({ length: 4 }, () => randomAddress());
    // Each sender pays the recipients 1, 2, 3 and 4 wei in that order: signed (the deployer) and impersonated (ada).
    const calls: WorldCall[] = [WORLD_DEPLOYER, WORLD_HOLDERS.ada].flatMap((from) =>
      recipients.map((to, i) => ({ from, to, data: '0x' as Hex, value: BigInt(i + 1), label: `pay ${to} from ${from}` })),
    );
    const sender = await createWorldSender(connectAnvil(proxy.url));

    expect(await sender.run(calls)).toBe(8);

    expect(sends).toHaveLength(8);
    for (const send of sends) expect(send.nonce, `${send.from}'s transaction of nonce ${send.nonce}`).toBe(send.mined);
    for (const from of [WORLD_DEPLOYER, WORLD_HOLDERS.ada]) {
      const own = sends.filter((send) => send.from === from);
      expect(own.map((send) => [send.nonce, send.to.toLowerCase()])).toEqual(recipients.map((to, i) => [i, to.toLowerCase()]));
      expect(await anvil.client.getTransactionCount({ address: from })).toBe(4);
    }
    const balances = await Promise.all(recipients.map((address) => anvil.client.getBalance({ address })));
    expect(balances).toEqual([2n, 4n, 6n, 8n]);
  });
});
