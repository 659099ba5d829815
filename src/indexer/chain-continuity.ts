import type { Hex } from 'viem';
import type { BlockHeader, BlockRef, ChainLog } from '../transfers/transfer.ts';

// Reorg detection as functions over what the follower read (docs/token-data.md#reorg-safety): whether new headers
// chain onto the checkpoint, whether logs belong to the blocks read with them, and which stored
// block a reorg left in place (the common ancestor the index rolls back to).

export type LinkCheck =
  | { ok: true }
  /** The first header's parent is not the checkpoint: the checkpoint block was replaced. */
  | { ok: false; reason: 'checkpoint-replaced' }
  /** Headers read together do not link: the node switched forks while answering. */
  | { ok: false; reason: 'unstable' };

/** Whether `headers` (ascending by number) follow one another and the checkpoint `parent` (null: nothing indexed yet). */
export function checkLinks(parent: BlockRef | null, headers: readonly BlockHeader[]): LinkCheck {
  let previous: BlockRef | null = parent;
  for (const [index, header] of headers.entries()) {
    if (previous === null) {
      previous = header;
      continue;
    }
    if (header.number !== previous.number + 1) return { ok: false, reason: 'unstable' };
    if (!sameHash(header.parentHash, previous.hash)) return { ok: false, reason: index === 0 ? 'checkpoint-replaced' : 'unstable' };
    previous = header;
  }
  return { ok: true };
}

/**
 * Whether every log lies in [from, to], the logs of one block agree on its hash, and that hash is
 * the one read with the block's header where one was read. A disagreement means the node answered
 * from two forks: the step is read again.
 */
export function logsMatchBlocks(logs: readonly ChainLog[], range: { from: number; to: number }, headers: ReadonlyMap<number, BlockHeader>): boolean {
  const seen = new Map<number, Hex>();
  for (const log of logs) {
    if (log.blockNumber < range.from || log.blockNumber > range.to) return false;
    const expected = headers.get(log.blockNumber)?.hash ?? seen.get(log.blockNumber);
    if (expected !== undefined && !sameHash(expected, log.blockHash)) return false;
    seen.set(log.blockNumber, log.blockHash);
  }
  return true;
}

/**
 * The newest stored block whose hash the node still gives for its number: the common ancestor
 * of the indexed fork and the node's. `stored` newest first; `nodeHashes` by number, null where the
 * node has no such block (a shorter chain). null: no stored block survives (a reset).
 */
export function newestCommonBlock(stored: readonly BlockRef[], nodeHashes: ReadonlyMap<number, Hex | null>): BlockRef | null {
  for (const block of stored) {
    const hash = nodeHashes.get(block.number);
    if (hash && sameHash(hash, block.hash)) return block;
  }
  return null;
}

function sameHash(a: Hex, b: Hex): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
