import type { Address, Hex } from 'viem';
import type { Database } from '../../../src/db/open.ts';
import type { Transfer } from '../../../src/transfers/transfer.ts';
import { webhookIndexHooks } from '../../../src/webhooks/outbox.ts';

// Fills the outbox as the indexer does, through its own hook inside a transaction, with ERC-721
// mints of token `block` in each of the given blocks: for the tests whose subject is delivery,
// not the chain (the chain's own tests are delivery.test.ts and reorg.test.ts).

export const CONTRACT: Address = '0x00000000000000000000000000000000000c0de1';
const ALICE: Address = '0x000000000000000000000000000000000000a11c';

function mint(block: number): Transfer {
  const hash = `0x${block.toString(16).padStart(64, '0')}` as Hex;
  return {
    blockNumber: block,
    blockHash: hash,
    blockTimestamp: 1_700_000_000 + block,
    transactionHash: hash,
    transactionIndex: 0,
    logIndex: 0,
    batchIndex: 0,
    contract: CONTRACT,
    kind: 'erc721',
    from: '0x0000000000000000000000000000000000000000',
    to: ALICE,
    tokenId: String(block),
    amount: '1',
  };
}

/** One delivery per block for every active NFT_ACTIVITY webhook of `network`. */
export async function fillOutbox(database: Database, network: string, blocks: readonly number[]): Promise<void> {
  const hooks = webhookIndexHooks({ reorgWindow: 128, nativeCurrency: () => ({ symbol: 'ETH', decimals: 18 }) });
  await database.db.transaction().execute(async (trx) => {
    await hooks.onTransfers({ network, from: blocks[0]!, to: blocks.at(-1)!, transfers: blocks.map(mint), nativeTransfers: [] }, trx);
  });
}
