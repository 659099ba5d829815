// What the follower reads next (docs/token-data.md#transfer-indexer). Blocks older than the reorg window are
// read as ranges (one eth_getLogs over many blocks, the range's last header for its hash). Blocks
// inside it, which a reorg may still replace, are read one by one: each header, linked to its
// parent, and its logs asked for by block hash, so every log stored belongs to a block the index
// remembers and a node that lags or switched forks answers an error instead of other logs.

export type StepPlan = { kind: 'range'; from: number; to: number } | { kind: 'blocks'; from: number; to: number };

export interface StepPlanInput {
  /** First block not yet indexed. */
  next: number;
  head: number;
  /** Blocks at the head left unindexed. */
  confirmations: number;
  /** Blocks at the head a reorg may replace: read one by one, their hashes kept. */
  reorgWindow: number;
  /** Blocks of the next range (range-size.ts). */
  rangeBlocks: number;
  /** Blocks read one by one in one step. */
  blocksPerStep: number;
}

/** The next step, or null when nothing is confirmed past the checkpoint yet. */
export function planStep(input: StepPlanInput): StepPlan | null {
  const last = input.head - input.confirmations;
  if (last < input.next) return null;
  const windowStart = input.head - input.reorgWindow + 1;
  if (input.next < windowStart) {
    return { kind: 'range', from: input.next, to: Math.min(last, windowStart - 1, input.next + Math.max(1, input.rangeBlocks) - 1) };
  }
  return { kind: 'blocks', from: input.next, to: Math.min(last, input.next + Math.max(1, input.blocksPerStep) - 1) };
}
