import { toEventSelector, type Hex } from 'viem';

// The events the index follows, by signature: topic0 is the keccak of each. eth_getLogs asks for
// all of them at once with no address filter, so every contract that emits one is indexed
// (docs/token-data.md#transfer-indexer); which standard a log follows is decided from its topics and data
// (decode-logs.ts), never from a list of known contracts.

const EVENT_SIGNATURES = {
  /** ERC-20 (3 topics, amount in data) and ERC-721 (4 topics, token id indexed): one topic0. */
  transfer: 'Transfer(address,address,uint256)',
  erc1155Single: 'TransferSingle(address,address,address,uint256,uint256)',
  erc1155Batch: 'TransferBatch(address,address,address,uint256[],uint256[])',
  /** CryptoPunks (2017) and its look-alikes: a punk handed out, given, and sold. */
  punkAssign: 'Assign(address,uint256)',
  punkTransfer: 'PunkTransfer(address,address,uint256)',
  punkBought: 'PunkBought(uint256,uint256,address,address)',
} as const;

type EventName = keyof typeof EVENT_SIGNATURES;

export const EVENT_TOPICS = Object.fromEntries(Object.entries(EVENT_SIGNATURES).map(([name, signature]) => [name, toEventSelector(signature)])) as Record<
  EventName,
  Hex
>;

/** The first position of an eth_getLogs `topics` filter: any of the followed events. */
export const FOLLOWED_TOPICS: Hex[] = Object.values(EVENT_TOPICS);
