import { encodeFunctionData } from 'viem';
import { WORLD_DEPLOYER } from './actors.ts';
import type { WorldCall } from './history.ts';
import { WORLD_FEEDS, type WorldFeed, type WorldFeedId } from './price-layer.ts';
import { connectAnvil, createWorldSender, type AnvilClient } from './sender.ts';

// The world's stand-in for an oracle network's heartbeat. A Chainlink feed gets a new round when the
// price moves past its deviation threshold or, failing that, once per heartbeat, so a reader can tell
// a live feed from a dead one by updatedAt. Nothing moves the world's feeds but this: at every devnet
// start (deployWorld) and on a timer while the devnet runs (local-devnets.ts), each world feed whose
// latest round is older than FEED_HEARTBEAT_SECONDS gets its latest answer submitted again, a new
// round with the same answer. A devnet whose chain is restored after hours thus has fresh feeds again.

/** A world feed's heartbeat: a round older than this is followed by a new one. */
export const FEED_HEARTBEAT_SECONDS = 3600;

/** How often a running devnet looks for stale feeds: while it runs, no feed's latest round is older than the heartbeat and this. */
export const FEED_CHECK_SECONDS = FEED_HEARTBEAT_SECONDS / 6;

export interface FeedRound {
  id: WorldFeedId;
  answer: bigint;
  /** The latest round's updatedAt, in unix seconds. */
  updatedAt: bigint;
}

/** The feeds whose latest round is older than the heartbeat at `nowSeconds`. */
export function staleFeeds(rounds: readonly FeedRound[], nowSeconds: bigint, heartbeatSeconds = FEED_HEARTBEAT_SECONDS): FeedRound[] {
  return rounds.filter((round) => nowSeconds - round.updatedAt > BigInt(heartbeatSeconds));
}

/**
 * The submissions the heartbeat owes now. "Now" is the later of the clock and the chain's latest
 * block: a restored chain's head is as old as its state file until it mines again, and a chain moved
 * ahead (evm_increaseTime) ages its feeds with it.
 */
export async function heartbeatCalls(client: AnvilClient, nowMs: number): Promise<WorldCall[]> {
  const [block, ...rounds] = await Promise.all([client.getBlock(), ...WORLD_FEEDS.map((feed) => latestRound(client, feed))]);
  const now = bigMax(block.timestamp, BigInt(Math.floor(nowMs / 1000)));
  return staleFeeds(rounds, now).map((round) => {
    const feed = WORLD_FEEDS.find((candidate) => candidate.id === round.id)!;
    return {
      from: WORLD_DEPLOYER,
      to: feed.address,
      data: encodeFunctionData({ abi: feed.artifact.abi, functionName: 'submit', args: [round.answer] }),
      label: `heartbeat of ${feed.id}`,
    };
  });
}

/** Submits again the latest answer of every stale world feed on the anvil at `rpcUrl`; returns the feeds given a new round. */
export async function refreshStaleFeeds(rpcUrl: string, options: { now?: () => number } = {}): Promise<WorldFeedId[]> {
  const client = connectAnvil(rpcUrl);
  const calls = await heartbeatCalls(client, (options.now ?? Date.now)());
  await (await createWorldSender(client)).run(calls);
  return calls.map((call) => WORLD_FEEDS.find((feed) => feed.address === call.to)!.id);
}

async function latestRound(client: AnvilClient, feed: WorldFeed): Promise<FeedRound> {
  const [, answer, , updatedAt] = (await client.readContract({ address: feed.address, abi: feed.artifact.abi, functionName: 'latestRoundData' })) as readonly [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return { id: feed.id, answer, updatedAt };
}

const bigMax = (a: bigint, b: bigint): bigint => (a > b ? a : b);
