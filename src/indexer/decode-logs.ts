import { decodeAbiParameters, type Address, type Hex } from 'viem';
import { EVENT_TOPICS } from './events.ts';
import { ZERO_ADDRESS, type ChainLog, type Transfer, type TransferKind } from '../transfers/transfer.ts';

// Logs to transfers (docs/token-data.md#transfer-indexer). Any contract may emit these events with any shape, so a log
// that does not have the shape its standard gives it (topic count, data length, equal batch
// arrays) is skipped and counted, never guessed at: a `Transfer` with one topic and three data words
// (CryptoKitties) could be either standard.
//
// CryptoPunksMarket (larvalabs/cryptopunks) logs every move twice: transferPunk emits
// `Transfer(from, to, 1)` (ERC-20's event, counting punks as its balanceOf does) then
// `PunkTransfer(from, to, punkIndex)`; buyPunk and acceptBidForPunk emit `Transfer(seller, buyer, 1)`
// then `PunkBought(punkIndex, value, seller, buyer)`. The punk event carries the move, so a 3-topic
// Transfer whose transaction has a PunkTransfer or PunkBought of the same contract is no ERC-20 transfer.

export interface DecodedLogs {
  /** In log order; a TransferBatch gives one per id. */
  transfers: Transfer[];
  /** Logs that matched a followed topic0 but not its shape, or were marked removed (a punk's count Transfer is neither). */
  skipped: number;
}

const WORD_HEX_LENGTH = 64;
const batchArrays = [{ type: 'uint256[]' }, { type: 'uint256[]' }] as const;
const PUNK_MOVE_TOPICS: ReadonlySet<string> = new Set([EVENT_TOPICS.punkTransfer, EVENT_TOPICS.punkBought]);

type Movement = Pick<Transfer, 'kind' | 'from' | 'to' | 'tokenId' | 'amount'>;

export function decodeTransferLogs(logs: readonly ChainLog[]): DecodedLogs {
  const ordered = [...logs].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  const transfers: Transfer[] = [];
  let skipped = 0;
  // The last ERC-20-style Transfer of each transaction and contract: a CryptoPunks PunkBought emitted
  // by acceptBidForPunk names the zero address as buyer, and the Transfer just before it names the buyer.
  const lastCountTransfer = new Map<string, { from: Address; to: Address }>();
  // Steps read whole blocks, so every log of a transaction is here.
  const punkMoves = new Set(ordered.filter((log) => !log.removed && PUNK_MOVE_TOPICS.has(log.topics[0]?.toLowerCase() ?? '')).map(countKey));
  for (const log of ordered) {
    const movements = log.removed ? null : movementsOf(log, lastCountTransfer, punkMoves);
    if (!movements) {
      skipped++;
      continue;
    }
    movements.forEach((movement, batchIndex) => {
      transfers.push({
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
        blockTimestamp: log.blockTimestamp,
        transactionHash: log.transactionHash,
        transactionIndex: log.transactionIndex,
        logIndex: log.logIndex,
        batchIndex,
        contract: log.address.toLowerCase() as Address,
        ...movement,
      });
    });
  }
  return { transfers, skipped };
}

function movementsOf(log: ChainLog, lastCountTransfer: Map<string, { from: Address; to: Address }>, punkMoves: ReadonlySet<string>): Movement[] | null {
  const { topics } = log;
  if (!topics.every((topic) => /^0x[0-9a-fA-F]{64}$/.test(topic))) return null;
  const words = wordCount(log.data);
  if (words === null) return null;
  const word = (index: number) => BigInt(`0x${log.data.slice(2 + index * WORD_HEX_LENGTH, 2 + (index + 1) * WORD_HEX_LENGTH)}`);
  switch (topics[0]?.toLowerCase()) {
    case EVENT_TOPICS.transfer: {
      if (topics.length === 3 && words === 1) {
        const movement = move('erc20', topics[1]!, topics[2]!, null, word(0));
        lastCountTransfer.set(countKey(log), { from: movement.from, to: movement.to });
        return punkMoves.has(countKey(log)) ? [] : [movement];
      }
      // ERC-721 indexes the token id; its data is empty.
      if (topics.length === 4 && words === 0) return [move('erc721', topics[1]!, topics[2]!, BigInt(topics[3]!), 1n)];
      return null;
    }
    case EVENT_TOPICS.erc1155Single:
      return topics.length === 4 && words === 2 ? [move('erc1155', topics[2]!, topics[3]!, word(0), word(1))] : null;
    case EVENT_TOPICS.erc1155Batch: {
      if (topics.length !== 4) return null;
      const arrays = batchOf(log.data);
      if (!arrays) return null;
      const [ids, values] = arrays;
      return ids.map((id, index) => move('erc1155', topics[2]!, topics[3]!, id, values[index]!));
    }
    case EVENT_TOPICS.punkAssign:
      return topics.length === 2 && words === 1 ? [move('legacy', ZERO_ADDRESS, topics[1]!, word(0), 1n)] : null;
    case EVENT_TOPICS.punkTransfer:
      return topics.length === 3 && words === 1 ? [move('legacy', topics[1]!, topics[2]!, word(0), 1n)] : null;
    case EVENT_TOPICS.punkBought: {
      if (topics.length !== 4 || words !== 1) return null;
      const movement = move('legacy', topics[2]!, topics[3]!, BigInt(topics[1]!), 1n);
      if (movement.to !== ZERO_ADDRESS) return [movement];
      const sale = lastCountTransfer.get(countKey(log));
      return sale && sale.from === movement.from && sale.to !== ZERO_ADDRESS ? [{ ...movement, to: sale.to }] : null;
    }
    default:
      return null;
  }
}

function move(kind: TransferKind, from: Hex, to: Hex, tokenId: bigint | null, amount: bigint): Movement {
  return { kind, from: addressOf(from), to: addressOf(to), tokenId: tokenId === null ? null : tokenId.toString(), amount: amount.toString() };
}

/** An indexed address is the low 20 bytes of its topic; a 20-byte value passes through. */
function addressOf(value: Hex): Address {
  return `0x${value.slice(-40).toLowerCase()}`;
}

function countKey(log: ChainLog): string {
  return `${log.transactionHash.toLowerCase()}:${log.address.toLowerCase()}`;
}

/** How many 32-byte words the data holds; null when it is not hex or not a whole number of words. */
function wordCount(data: Hex): number | null {
  const digits = data.slice(2);
  return /^(?:[0-9a-fA-F]{64})*$/.test(digits) ? digits.length / WORD_HEX_LENGTH : null;
}

function batchOf(data: Hex): readonly [readonly bigint[], readonly bigint[]] | null {
  try {
    const [ids, values] = decodeAbiParameters(batchArrays, data);
    return ids.length === values.length && ids.length > 0 ? [ids, values] : null;
  } catch {
    return null;
  }
}
