// Request limits of the JSON-RPC gateway (docs/json-rpc.md#requests).

/** The largest body the gateway reads: 2 MiB. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** The most requests one batch may hold. */
export const MAX_BATCH = 100;

/** The most subscriptions one WebSocket connection may hold. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 100;

/** The most addresses one log filter may name (eth_getLogs, eth_newFilter, logs subscriptions): each is matched against every log. */
export const MAX_LOGS_FILTER_ADDRESSES = 1_000;

/** The most topics one position of a log filter's topics may list (its alternatives). */
export const MAX_LOGS_FILTER_TOPICS = 1_000;

/**
 * The most addresses one transactions subscription may name in total (alchemy_pendingTransactions'
 * fromAddress and toAddress together, alchemy_minedTransactions' addresses), as the incumbent documents.
 */
export const MAX_TRANSACTION_FILTER_ADDRESSES = 1_000;

/** The most transfers one crucible_getAssetTransfers page holds (maxCount's cap and default, docs/token-data.md#crucible_getassettransfers). */
export const MAX_ASSET_TRANSFERS_PER_PAGE = 1_000;

/** The most token contracts one crucible_getAssetTransfers request may name: each is a bound value of its query. */
export const MAX_ASSET_TRANSFER_CONTRACTS = 1_000;
