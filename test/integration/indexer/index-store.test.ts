import type { Address, Hex } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/open.ts';
import { createCheckpoint, readCheckpoint, recordError } from '../../../src/indexer/checkpoints.ts';
import { applyStep, CheckpointMovedError, resetIndex, rollbackTo, type IndexStep } from '../../../src/indexer/index-writes.ts';
import { acquireLease, LeaseLostError, releaseLease } from '../../../src/indexer/lease.ts';
import { indexerStatus, nftsOfOwner, tokensOfHolder } from '../../../src/transfers/queries.ts';
import type { Transfer } from '../../../src/transfers/transfer.ts';
import { databaseEngines } from '../../support/postgres.ts';

// The index's writes and reads on both engines, over transfers made up here (the follower over a
// real chain is tested in follow.test.ts): a step, its rollback, a reset, the lease fence.

const NETWORK = 'crucible-testnet';
const ALICE: Address = '0x000000000000000000000000000000000000a11c';
const BOB: Address = '0x0000000000000000000000000000000000000b0b';
const ZERO: Address = '0x0000000000000000000000000000000000000000';
const TOKENS = [
  '0x00000000000000000000000000000000000000a1',
  '0x00000000000000000000000000000000000000a2',
  '0x00000000000000000000000000000000000000a3',
] as const;
const NFT: Address = '0x00000000000000000000000000000000000000b1';
const MULTI: Address = '0x00000000000000000000000000000000000000b2';
const LEASE_MS = 60_000;

const hash = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
let logIndex = 0;
function transfer(
  blockNumber: number,
  kind: Transfer['kind'],
  contract: Address,
  from: Address,
  to: Address,
  amount: string,
  tokenId: string | null = null,
): Transfer {
  return {
    blockNumber,
    blockHash: hash(blockNumber),
    blockTimestamp: 1000 + blockNumber,
    transactionHash: hash(9000 + logIndex),
    transactionIndex: logIndex,
    logIndex: logIndex++,
    batchIndex: 0,
    contract,
    kind,
    from,
    to,
    tokenId,
    amount,
  };
}

function step(after: number, to: number, transfers: Transfer[], holder = 'process-a', now = 1_000): IndexStep {
  return {
    lease: { network: NETWORK, holder, now, leaseMs: LEASE_MS },
    after,
    from: after + 1,
    to: { number: to, hash: hash(to), timestamp: 1000 + to },
    blocks: Array.from({ length: to - after }, (_, index) => ({
      number: after + 1 + index,
      hash: hash(after + 1 + index),
      timestamp: 1000 + after + 1 + index,
    })),
    transfers,
    nativeTransfers: [],
    internalTransfers: 'recorded',
    internalFromBlock: 0,
    head: to + 2,
    state: 'following',
    reorgWindow: 128,
  };
}

/** Every row the index holds for the network, in a stable order. */
async function snapshot(database: Database) {
  const { db } = database;
  return {
    checkpoint: await db
      .selectFrom('indexer_checkpoints')
      .select(['block_number', 'block_hash', 'block_timestamp'])
      .where('network', '=', NETWORK)
      .executeTakeFirst(),
    transfers: await db.selectFrom('indexer_transfers').selectAll().where('network', '=', NETWORK).orderBy('block_number').orderBy('log_index').execute(),
    holders: await db.selectFrom('indexer_holder_tokens').selectAll().where('network', '=', NETWORK).orderBy('holder').orderBy('contract').execute(),
    nfts: await db
      .selectFrom('indexer_nft_balances')
      .selectAll()
      .where('network', '=', NETWORK)
      .orderBy('owner')
      .orderBy('contract')
      .orderBy('token_id')
      .execute(),
    blocks: await db.selectFrom('indexer_blocks').selectAll().where('network', '=', NETWORK).orderBy('block_number').execute(),
  };
}

describe.each(databaseEngines())('transfer index storage on $name', (engine) => {
  let database: Database;
  afterEach(async () => database?.close());

  async function ready(): Promise<Database> {
    database = await engine.open();
    await createCheckpoint(database.db, { network: NETWORK, genesisHash: hash(0), startBlock: 0, head: 0, now: 1_000 });
    expect(await acquireLease(database.db, { network: NETWORK, holder: 'process-a', now: 1_000, leaseMs: LEASE_MS })).toBe(true);
    return database;
  }

  it('stores a step and answers the products’ queries: tokens per holder in pages, NFTs per owner with totals and their block', async () => {
    const { db } = await ready();
    await applyStep(
      db,
      step(-1, 3, [
        transfer(1, 'erc20', TOKENS[2], ZERO, ALICE, '1000'),
        transfer(1, 'erc20', TOKENS[0], ZERO, ALICE, '5'),
        transfer(2, 'erc20', TOKENS[1], BOB, ALICE, (2n ** 200n).toString()),
        transfer(2, 'erc721', NFT, ZERO, ALICE, '1', '10'),
        transfer(2, 'erc721', NFT, ZERO, ALICE, '1', '9'),
        transfer(3, 'erc721', NFT, ZERO, ALICE, '1', '100'),
        transfer(3, 'erc1155', MULTI, ZERO, ALICE, '7', '1'),
        transfer(3, 'erc1155', MULTI, ALICE, BOB, '2', '1'),
      ]),
    );

    expect(await tokensOfHolder(db, NETWORK, ALICE, { limit: 2 })).toEqual(
      [TOKENS[0], TOKENS[1]].map((token) => expect.stringMatching(new RegExp(`^${token}$`, 'i'))),
    );
    expect((await tokensOfHolder(db, NETWORK, ALICE, { after: TOKENS[1], limit: 2 })).map((token) => token.toLowerCase())).toEqual([TOKENS[2]]);
    expect((await tokensOfHolder(db, NETWORK, BOB, { limit: 10 })).map((token) => token.toLowerCase())).toEqual([TOKENS[1]]);

    const first = await nftsOfOwner(db, NETWORK, ALICE, { limit: 3 });
    expect(first.totalCount).toBe(4);
    expect(first.validAt).toEqual({ number: 3, hash: hash(3), timestamp: 1003 });
    // By contract, then token id as a number: 9, 10, 100.
    expect(first.nfts.map((nft) => [nft.contract.toLowerCase(), nft.tokenId, nft.balance])).toEqual([
      [NFT, '9', '1'],
      [NFT, '10', '1'],
      [NFT, '100', '1'],
    ]);
    const second = await nftsOfOwner(db, NETWORK, ALICE, { limit: 3, after: first.next! });
    expect(second.nfts.map((nft) => [nft.contract.toLowerCase(), nft.tokenId, nft.balance, nft.kind])).toEqual([[MULTI, '1', '5', 'erc1155']]);
    expect(second.next).toBeNull();

    const newest = await nftsOfOwner(db, NETWORK, ALICE, { limit: 2, orderBy: 'transferTime' });
    expect(newest.nfts.map((nft) => nft.tokenId)).toEqual(['1', '100']);
    expect((await nftsOfOwner(db, NETWORK, ALICE, { limit: 5, orderBy: 'transferTime', after: newest.next! })).nfts.map((nft) => nft.tokenId)).toEqual([
      '9',
      '10',
    ]);
    expect((await nftsOfOwner(db, NETWORK, ALICE, { limit: 5, contracts: [MULTI] })).nfts.map((nft) => nft.tokenId)).toEqual(['1']);
    expect((await nftsOfOwner(db, NETWORK, BOB, { limit: 5 })).nfts.map((nft) => [nft.tokenId, nft.balance])).toEqual([['1', '2']]);
  });

  it('rolls a step back to exactly what the index held before it, and returns what it removed', async () => {
    const { db } = await ready();
    await applyStep(
      db,
      step(-1, 2, [
        transfer(1, 'erc20', TOKENS[0], ZERO, ALICE, '5'),
        transfer(2, 'erc721', NFT, ZERO, ALICE, '1', '1'),
        transfer(2, 'erc1155', MULTI, ZERO, ALICE, '9', '4'),
      ]),
    );
    const before = await snapshot(database);
    const undone = [
      transfer(3, 'erc20', TOKENS[0], ALICE, BOB, '5'),
      transfer(3, 'erc20', TOKENS[1], ZERO, BOB, '1'),
      transfer(4, 'erc721', NFT, ALICE, BOB, '1', '1'),
      transfer(4, 'erc1155', MULTI, ALICE, BOB, '9', '4'),
      transfer(4, 'erc721', NFT, ZERO, BOB, '1', '2'),
    ];
    await applyStep(db, step(2, 4, undone));
    expect((await nftsOfOwner(db, NETWORK, ALICE, { limit: 10 })).totalCount).toBe(0);

    const removed = await rollbackTo(db, {
      lease: { network: NETWORK, holder: 'process-a', now: 2_000, leaseMs: LEASE_MS },
      ancestor: { number: 2, hash: hash(2), timestamp: 1002 },
    });
    expect(removed).toEqual(undone);
    expect(await snapshot(database)).toEqual(before);
    expect((await readCheckpoint(db, NETWORK))?.nextBlock).toBe(3);
  });

  it('recomputes the last transfer of a balance a rollback leaves in place', async () => {
    const { db } = await ready();
    await applyStep(db, step(-1, 2, [transfer(1, 'erc1155', MULTI, ZERO, ALICE, '10', '4'), transfer(2, 'erc1155', MULTI, ALICE, BOB, '1', '4')]));
    await applyStep(db, step(2, 3, [transfer(3, 'erc1155', MULTI, ALICE, BOB, '3', '4')]));
    await rollbackTo(db, {
      lease: { network: NETWORK, holder: 'process-a', now: 2_000, leaseMs: LEASE_MS },
      ancestor: { number: 2, hash: hash(2), timestamp: 1002 },
    });
    const [alice] = (await nftsOfOwner(db, NETWORK, ALICE, { limit: 1 })).nfts;
    expect(alice).toMatchObject({ balance: '9', lastBlock: 2 });
  });

  it('commits nothing of a step whose hook throws, or whose checkpoint another writer moved', async () => {
    const { db } = await ready();
    const before = await snapshot(database);
    const failing = applyStep(db, step(-1, 2, [transfer(1, 'erc20', TOKENS[0], ZERO, ALICE, '5')]), {
      onTransfers: async (event, trx) => {
        expect(event.transfers).toHaveLength(1);
        // The hook sees the step inside the transaction, then fails it.
        expect(await trx.selectFrom('indexer_transfers').select('amount').where('network', '=', NETWORK).execute()).toEqual([{ amount: '5' }]);
        throw new Error('the outbox is full');
      },
    });
    await expect(failing).rejects.toThrow('the outbox is full');
    expect(await snapshot(database)).toEqual(before);

    await expect(applyStep(db, step(5, 6, [transfer(6, 'erc20', TOKENS[0], ZERO, ALICE, '5')]))).rejects.toBeInstanceOf(CheckpointMovedError);
    expect(await snapshot(database)).toEqual(before);
  });

  it('lets only the lease holder write; another process takes an expired or released lease, and the first then writes nothing', async () => {
    const { db } = await ready();
    expect(await acquireLease(db, { network: NETWORK, holder: 'process-b', now: 2_000, leaseMs: LEASE_MS })).toBe(false);
    await expect(applyStep(db, step(-1, 1, [], 'process-b', 2_000))).rejects.toBeInstanceOf(LeaseLostError);

    // Expired: process-a did not renew within its lease.
    expect(await acquireLease(db, { network: NETWORK, holder: 'process-b', now: 1_000 + LEASE_MS, leaseMs: LEASE_MS })).toBe(true);
    const before = await snapshot(database);
    await expect(applyStep(db, step(-1, 1, [transfer(1, 'erc20', TOKENS[0], ZERO, ALICE, '5')], 'process-a', 1_000 + LEASE_MS))).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    expect(await snapshot(database)).toEqual(before);

    await releaseLease(db, NETWORK, 'process-b');
    expect(await acquireLease(db, { network: NETWORK, holder: 'process-a', now: 1_000 + LEASE_MS, leaseMs: LEASE_MS })).toBe(true);
  });

  it('drops a network’s whole index on a reset, leaving other networks alone', async () => {
    const { db } = await ready();
    await createCheckpoint(db, { network: 'other', genesisHash: hash(0), startBlock: 0, head: 0, now: 1_000 });
    await acquireLease(db, { network: 'other', holder: 'process-a', now: 1_000, leaseMs: LEASE_MS });
    await applyStep(db, step(-1, 2, [transfer(1, 'erc20', TOKENS[0], ZERO, ALICE, '5'), transfer(2, 'erc721', NFT, ZERO, ALICE, '1', '1')]));
    await applyStep(db, {
      ...step(-1, 2, [transfer(1, 'erc20', TOKENS[0], ZERO, ALICE, '5')]),
      lease: { network: 'other', holder: 'process-a', now: 1_000, leaseMs: LEASE_MS },
    });

    const resets: string[] = [];
    await resetIndex(
      db,
      {
        lease: { network: NETWORK, holder: 'process-a', now: 3_000, leaseMs: LEASE_MS },
        genesisHash: hash(77),
        startBlock: 5,
        head: 9,
        reason: 'genesis-changed',
      },
      { onReset: (event) => void resets.push(`${event.network}:${event.reason}`) },
    );
    expect(resets).toEqual([`${NETWORK}:genesis-changed`]);
    const after = await snapshot(database);
    expect([after.transfers, after.holders, after.nfts, after.blocks]).toEqual([[], [], [], []]);
    expect(await readCheckpoint(db, NETWORK)).toMatchObject({ genesisHash: hash(77), block: null, nextBlock: 5, state: 'backfilling' });
    expect(await tokensOfHolder(db, 'other', ALICE, { limit: 5 })).toHaveLength(1);
  });

  it('reports each network’s state: waiting, following, failing until the next success, stopped without a leader', async () => {
    const { db } = await ready();
    const now = 5_000;
    await applyStep(db, step(-1, 3, []));
    expect(await indexerStatus(db, { networks: [NETWORK, 'ethereum-sepolia'], now })).toEqual([
      { network: NETWORK, state: 'following', headBlock: 5, indexedBlock: 3, lag: 2, updatedAt: 1_000, lastError: null },
      { network: 'ethereum-sepolia', state: 'waiting', headBlock: null, indexedBlock: null, lag: null, updatedAt: null, lastError: null },
    ]);
    await recordError(db, NETWORK, 'the node refused', 4_000);
    expect((await indexerStatus(db, { now }))[0]).toMatchObject({ state: 'failing', lastError: 'the node refused' });
    await applyStep(db, step(3, 4, [], 'process-a', 4_500));
    expect((await indexerStatus(db, { now }))[0]).toMatchObject({ state: 'following', lastError: null, indexedBlock: 4 });
    await releaseLease(db, NETWORK, 'process-a');
    expect((await indexerStatus(db, { now }))[0]).toMatchObject({ state: 'stopped' });
  });
});
