import { describe, expect, it } from 'vitest';
import { createBlockWindow, type MinedBlock } from '../../../../src/node/websocket/block-window.ts';

// What a new head changes for the mined transactions feed: the blocks it adds, and the blocks a
// reorganisation replaced. The chain here is a set of blocks by hash, as a node would answer
// eth_getBlockByHash for them.

/** A block on branch `branch` at `number`, whose parent is on `parentBranch`. */
const block = (branch: string, number: number, parentBranch = branch): MinedBlock => ({
  hash: `${branch}${number}`,
  number,
  parentHash: `${parentBranch}${number - 1}`,
  transactions: [{ hash: `tx-${branch}${number}`, from: '0xa', to: null, json: '{}' }],
});

function chainOf(...blocks: MinedBlock[]) {
  const known = new Map(blocks.map((entry) => [entry.hash, entry]));
  const fetched: string[] = [];
  return {
    fetched,
    fetch: async (hash: string) => {
      fetched.push(hash);
      return known.get(hash) ?? null;
    },
    add: (...more: MinedBlock[]) => {
      for (const entry of more) known.set(entry.hash, entry);
    },
  };
}
const hashes = (blocks: MinedBlock[]) => blocks.map((entry) => entry.hash);

describe('createBlockWindow', () => {
  it('the first head is the only block added; each next one is added alone, read once', async () => {
    const chain = chainOf(block('a', 1), block('a', 2), block('a', 3));
    const window = createBlockWindow(64);
    expect(hashes((await window.advance('a1', chain.fetch)).added)).toEqual(['a1']);
    expect(await window.advance('a2', chain.fetch)).toMatchObject({ removed: [], added: [{ hash: 'a2' }] });
    expect(await window.advance('a2', chain.fetch)).toEqual({ removed: [], added: [] });
    expect(hashes((await window.advance('a3', chain.fetch)).added)).toEqual(['a3']);
    expect(chain.fetched).toEqual(['a1', 'a2', 'a3']);
  });

  it('heads that were missed are filled in from the parents, lowest first', async () => {
    const chain = chainOf(block('a', 1), block('a', 2), block('a', 3), block('a', 4));
    const window = createBlockWindow(64);
    await window.advance('a1', chain.fetch);
    expect(await window.advance('a4', chain.fetch)).toMatchObject({ removed: [], added: [{ hash: 'a2' }, { hash: 'a3' }, { hash: 'a4' }] });
  });

  it('a head on another branch removes the replaced blocks and adds the new branch from the common ancestor', async () => {
    const chain = chainOf(block('a', 1), block('a', 2), block('a', 3), block('b', 2, 'a'), block('b', 3), block('b', 4));
    const window = createBlockWindow(64);
    for (const hash of ['a1', 'a2', 'a3']) await window.advance(hash, chain.fetch);
    const change = await window.advance('b4', chain.fetch);
    expect(hashes(change.removed)).toEqual(['a2', 'a3']);
    expect(hashes(change.added)).toEqual(['b2', 'b3', 'b4']);
    // The window follows the new branch: a3's sibling is not replaced again.
    chain.add(block('b', 5));
    expect(await window.advance('b5', chain.fetch)).toMatchObject({ removed: [], added: [{ hash: 'b5' }] });
  });

  it('a replacement at the same height (anvil_reorg of depth 1) removes the old block', async () => {
    const chain = chainOf(block('a', 1), block('a', 2), block('b', 2, 'a'));
    const window = createBlockWindow(64);
    await window.advance('a1', chain.fetch);
    await window.advance('a2', chain.fetch);
    expect(await window.advance('b2', chain.fetch)).toMatchObject({ removed: [{ hash: 'a2' }], added: [{ hash: 'b2' }] });
  });

  it('a head below the tip whose parent it holds removes the blocks above the parent', async () => {
    const chain = chainOf(block('a', 1), block('a', 2), block('a', 3), block('b', 2, 'a'));
    const window = createBlockWindow(64);
    for (const hash of ['a1', 'a2', 'a3']) await window.advance(hash, chain.fetch);
    expect(hashes((await window.advance('b2', chain.fetch)).removed)).toEqual(['a2', 'a3']);
  });

  it('walks back at most its depth; blocks at the heights walked are replaced when no ancestor is found', async () => {
    const chain = chainOf(block('a', 1), block('a', 2), block('a', 3), block('b', 1, 'x'), block('b', 2), block('b', 3), block('b', 4));
    const window = createBlockWindow(3);
    for (const hash of ['a1', 'a2', 'a3']) await window.advance(hash, chain.fetch);
    chain.fetched.length = 0;
    const change = await window.advance('b4', chain.fetch);
    expect(chain.fetched).toEqual(['b4', 'b3', 'b2']);
    expect(hashes(change.removed)).toEqual(['a2', 'a3']);
    expect(hashes(change.added)).toEqual(['b2', 'b3', 'b4']);
  });

  it('a block the node does not know changes nothing: the next head walks back to it', async () => {
    const chain = chainOf(block('a', 1), block('a', 3));
    const window = createBlockWindow(64);
    await window.advance('a1', chain.fetch);
    await expect(window.advance('a3', chain.fetch)).rejects.toThrow(/does not know block a2/);
    chain.add(block('a', 2), block('a', 4));
    expect(hashes((await window.advance('a4', chain.fetch)).added)).toEqual(['a2', 'a3', 'a4']);
  });
});
