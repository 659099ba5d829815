import { parseAbi, toEventSelector, type Hex } from 'viem';

// The events of a Crucible marketplace contract (contracts/CrucibleMarketplace.sol; the shape is
// documented in docs/nft-data.md#the-marketplace-contract): every listing made, cancelled or
// bought from is one log, so listings and sales are followed from logs alone. A marketplace is
// read by these events at its address; the index keeps them from every contract that emits them.

export const MARKETPLACE_EVENTS = parseAbi([
  'event Listed(uint256 indexed listingId, address indexed seller, address indexed collection, uint256 tokenId, uint256 quantity, address currency, uint256 unitPrice)',
  'event Cancelled(uint256 indexed listingId, address indexed seller)',
  'event Sold(uint256 indexed listingId, address indexed buyer, address indexed seller, address collection, uint256 tokenId, uint256 quantity, address currency, uint256 price, uint256 marketplaceFee, address royaltyReceiver, uint256 royaltyFee)',
]);

/** topic0 of each event: what the index asks eth_getLogs for beside the transfers. */
export const MARKETPLACE_TOPICS: readonly Hex[] = MARKETPLACE_EVENTS.map((event) => toEventSelector(event));
