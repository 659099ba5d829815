import type { Address } from 'viem';
import { ZERO_ADDRESS, type NftKind, type Transfer } from '../transfers/transfer.ts';

// What a batch of transfers changes in the two views the products read (docs/token-data.md#transfer-indexer): which
// ERC-20 contracts each holder ever received or sent (with the first block, so a rollback knows
// which pairs it ends), and each NFT balance. Applying a step adds the balance deltas; rolling one
// back adds them negated (sign -1), so the same sums undo exactly what was done.
// The zero address is no holder: mints and burns move tokens from and to nobody.

export interface HolderToken {
  /** `holder:contract`. */
  key: string;
  holder: Address;
  contract: Address;
  /** The block of the first of these transfers that names `holder`. */
  firstBlock: number;
}

export interface NftBalanceDelta {
  owner: Address;
  contract: Address;
  tokenId: string;
  kind: NftKind;
  delta: bigint;
  /** The latest transfer among those summed. */
  lastBlock: number;
  lastLogIndex: number;
}

/** The ERC-20 contracts each holder received or sent, once per pair, in the order first seen. */
export function holderTokens(transfers: readonly Transfer[]): HolderToken[] {
  const pairs = new Map<string, HolderToken>();
  for (const transfer of transfers) {
    if (transfer.kind !== 'erc20') continue;
    for (const holder of [transfer.from, transfer.to]) {
      if (holder === ZERO_ADDRESS) continue;
      const key = `${holder}:${transfer.contract}`;
      const pair = pairs.get(key);
      if (!pair) pairs.set(key, { key, holder, contract: transfer.contract, firstBlock: transfer.blockNumber });
      else if (transfer.blockNumber < pair.firstBlock) pair.firstBlock = transfer.blockNumber;
    }
  }
  return [...pairs.values()];
}

/** NFT balance changes per owner, contract and token, in key order. */
export function nftBalanceDeltas(transfers: readonly Transfer[], sign: 1 | -1): NftBalanceDelta[] {
  const deltas = new Map<string, NftBalanceDelta>();
  for (const transfer of transfers) {
    if (transfer.kind === 'erc20' || transfer.tokenId === null) continue;
    const amount = BigInt(transfer.amount) * BigInt(sign);
    for (const [owner, change] of [
      [transfer.from, -amount],
      [transfer.to, amount],
    ] as const) {
      if (owner === ZERO_ADDRESS) continue;
      const key = nftKey(owner, transfer.contract, transfer.tokenId);
      const entry = deltas.get(key);
      if (!entry) {
        deltas.set(key, {
          owner,
          contract: transfer.contract,
          tokenId: transfer.tokenId,
          kind: transfer.kind,
          delta: change,
          lastBlock: transfer.blockNumber,
          lastLogIndex: transfer.logIndex,
        });
        continue;
      }
      entry.delta += change;
      if (transfer.blockNumber > entry.lastBlock || (transfer.blockNumber === entry.lastBlock && transfer.logIndex > entry.lastLogIndex)) {
        entry.lastBlock = transfer.blockNumber;
        entry.lastLogIndex = transfer.logIndex;
      }
    }
  }
  return [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, delta]) => delta);
}

export function nftKey(owner: Address, contract: Address, tokenId: string): string {
  return `${owner}:${contract}:${tokenId}`;
}
