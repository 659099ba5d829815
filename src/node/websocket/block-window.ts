// The last blocks of a network's canonical chain as the mined transactions feed saw them
// (transaction-feed.ts), kept to tell what a new head changes: the blocks it adds, and the blocks
// a reorganisation replaced, whose transactions are sent again with removed: true. A head is
// followed back through its parents until a block the window holds: that block is the common
// ancestor, the window's blocks above it were replaced, and the blocks walked are new (this also
// fills heads that were missed, after an upstream reconnect). The walk stops at the window's depth.

export interface MinedTransaction {
  hash: string;
  /** Lowercase, for matching. */
  from: string;
  /** Lowercase; null for a contract creation. */
  to: string | null;
  /** The transaction object as the node gave it, as JSON. */
  json: string;
}

export interface MinedBlock {
  hash: string;
  number: number;
  parentHash: string;
  transactions: MinedTransaction[];
}

/** What a head changed: blocks replaced (lowest first) and blocks new to the chain (lowest first). */
export interface ChainChange {
  removed: MinedBlock[];
  added: MinedBlock[];
}

/** A block with its transactions by hash, or null when the node does not know it. Throws when the node did not answer. */
type FetchBlock = (hash: string) => Promise<MinedBlock | null>;

export interface BlockWindow {
  /** Follows the chain to `headHash`. Throws, changing nothing, when a block could not be fetched. */
  advance(headHash: string, fetchBlock: FetchBlock): Promise<ChainChange>;
  /** Forgets every block (the feed stopped following the chain). */
  clear(): void;
}

const unchanged: ChainChange = { removed: [], added: [] };

/** `depth`: how many blocks are kept, so how deep a reorganisation is seen (the network's finality depth). */
export function createBlockWindow(depth: number): BlockWindow {
  /** The canonical chain's last blocks, lowest first, consecutive. */
  let blocks: MinedBlock[] = [];
  const byHash = new Map<string, MinedBlock>();

  return {
    async advance(headHash, fetchBlock) {
      if (byHash.has(headHash)) return unchanged;
      const head = await fetchBlock(headHash);
      // Gone already (replaced before it could be read): the next head says where the chain is.
      if (!head) return unchanged;
      const branch = [head];
      let lowest = head;
      const floor = blocks[0]?.number;
      while (floor !== undefined && !byHash.has(lowest.parentHash) && lowest.number > floor && branch.length < depth) {
        const parent = await fetchBlock(lowest.parentHash);
        if (!parent) throw new Error(`the upstream does not know block ${lowest.parentHash}, parent of ${lowest.hash}`);
        branch.push(parent);
        lowest = parent;
      }
      const ancestor = byHash.get(lowest.parentHash);
      // Without a common ancestor in the window, every block at the branch's heights or above was replaced.
      const firstReplaced = ancestor ? ancestor.number + 1 : lowest.number;
      const removed = blocks.filter((block) => block.number >= firstReplaced);
      const added = branch.reverse();
      // Blocks below the branch stay only when it grows from them.
      blocks = [...(ancestor ? blocks.filter((block) => block.number <= ancestor.number) : []), ...added].slice(-depth);
      byHash.clear();
      for (const block of blocks) byHash.set(block.hash, block);
      return { removed, added };
    },
    clear() {
      blocks = [];
      byHash.clear();
    },
  };
}
