// The typed table map of the platform's database (src/db/migrations/ creates the tables). The
// same row types hold on both engines: timestamps are integer milliseconds since the epoch
// (bigint on PostgreSQL, read back as numbers), lists are JSON text.

export interface DatabaseSchema {
  apps: AppRow;
  usage_minutes: UsageMinuteRow;
  usage_errors: UsageErrorRow;
  indexer_checkpoints: IndexerCheckpointRow;
  indexer_leases: IndexerLeaseRow;
  indexer_blocks: IndexerBlockRow;
  indexer_transfers: IndexerTransferRow;
  indexer_native_transfers: IndexerNativeTransferRow;
  indexer_holder_tokens: IndexerHolderTokenRow;
  indexer_nft_balances: IndexerNftBalanceRow;
  account_tokens: AccountTokenRow;
  webhooks: WebhookRow;
  webhook_deliveries: WebhookDeliveryRow;
  webhook_attempts: WebhookAttemptRow;
  webhook_sent_transfers: WebhookSentTransferRow;
  webhook_sent_native_transfers: WebhookSentNativeTransferRow;
  webhook_addresses: WebhookAddressRow;
  broadcast_transactions: BroadcastTransactionRow;
  nft_metadata: NftMetadataRow;
  nft_images: NftImageRow;
  nft_media: NftMediaRow;
  nft_contracts: NftContractRow;
  nft_market_listings: NftMarketListingRow;
  nft_market_cancellations: NftMarketCancellationRow;
  nft_market_sales: NftMarketSaleRow;
  nft_spam_reports: NftSpamReportRow;
  nft_reingestions: NftReingestionRow;
  price_observations: PriceObservationRow;
  price_current: PriceCurrentRow;
  price_points: PricePointRow;
  accounts: AccountRow;
  sessions: SessionRow;
}

/** An app and its key (docs/keys-and-limits.md#apps). */
export interface AppRow {
  id: string;
  name: string;
  owner_id: string | null;
  /** SHA-256 hex of the current key: the gateway's lookup. */
  key_hash: string;
  /** The current key sealed with AES-256-GCM under APP_KEY_SECRET, so its owner can view it again. */
  key_sealed: string;
  /** The key before the last rotation, accepted until previous_key_expires_at (a grace period). */
  previous_key_hash: string | null;
  previous_key_expires_at: number | null;
  /** JSON array of hosts (`example.com`, `*.example.com`); empty: any origin. */
  allowed_domains: string;
  /** JSON array of network ids; empty: every network. */
  allowed_networks: string;
  compute_units_per_second: number;
  /** null: unlimited. */
  monthly_compute_unit_quota: number | null;
  state: 'active' | 'disabled';
  created_at: number;
  updated_at: number;
  /** +1 on every change (stale-form checks). */
  version: number;
}

/** Requests of one app, network and method in one UTC minute. */
export interface UsageMinuteRow {
  app_id: string;
  network: string;
  method: string;
  /** Start of the minute, ms since the epoch. */
  minute: number;
  requests: number;
  compute_units: number;
  errors: number;
}

/** Errors by code of one app and network in one UTC minute. */
export interface UsageErrorRow {
  app_id: string;
  network: string;
  code: number;
  minute: number;
  count: number;
}

/** Per network: how far the transfer index reaches (src/indexer/). */
export interface IndexerCheckpointRow {
  network: string;
  /** Block 0's hash when indexing began: another one means the chain was reset. */
  genesis_hash: string;
  /** The last block indexed; with block_hash null, none is yet and this is the one before the first. */
  block_number: number;
  block_hash: string | null;
  /** Seconds since the epoch. */
  block_timestamp: number | null;
  /** The chain head the leader last saw. */
  head_number: number;
  state: 'backfilling' | 'following';
  updated_at: number;
  last_error: string | null;
  last_error_at: number | null;
  /** What the index records (src/indexer/checkpoints.ts, INDEX_VERSION); an older version is rebuilt from its first block. */
  index_version: number;
  /**
   * Internal transfers: 'recorded' for every indexed block (the node answered call traces), 'unavailable'
   * (it did not, once: none is recorded until the index is rebuilt), 'pending' before the first step.
   */
  internal_transfers: 'pending' | 'recorded' | 'unavailable';
  /** With 'recorded': every internal transfer from this block on is recorded (the node could not trace the one before it); null: from the index's first block. */
  internal_from_block: number | null;
}

/** Which process indexes a network, until when (renewed while it does). */
interface IndexerLeaseRow {
  network: string;
  holder: string;
  expires_at: number;
  acquired_at: number;
}

/** Hashes of recently indexed blocks: a reorg's common ancestor is found among them. */
interface IndexerBlockRow {
  network: string;
  block_number: number;
  block_hash: string;
  /** Seconds since the epoch. */
  block_timestamp: number;
}

/** One transfer (one per id of an ERC-1155 batch). */
export interface IndexerTransferRow {
  network: string;
  block_number: number;
  log_index: number;
  batch_index: number;
  block_hash: string;
  block_timestamp: number | null;
  transaction_hash: string;
  /** The transaction's position in its block; null only in rows of an index older than the column (rebuilt at its next step). */
  transaction_index: number | null;
  contract: string;
  kind: 'erc20' | 'erc721' | 'erc1155' | 'legacy';
  from_address: string;
  to_address: string;
  /** Decimal; null for ERC-20. */
  token_id: string | null;
  /** Decimal. */
  amount: string;
}

/** Native coin moved: a successful transaction's value (trace_index 0), or a call's inside one, from call traces. */
export interface IndexerNativeTransferRow {
  network: string;
  block_number: number;
  transaction_index: number;
  /** The call's depth-first position in the transaction's call tree; 0: the transaction itself. */
  trace_index: number;
  block_hash: string;
  /** Seconds since the epoch. */
  block_timestamp: number;
  transaction_hash: string;
  kind: 'external' | 'internal';
  from_address: string;
  to_address: string;
  /** Decimal, in wei. */
  amount: string;
}

/** An ERC-20 contract a holder ever received or sent, with the block of the first indexed transfer that says so. */
interface IndexerHolderTokenRow {
  network: string;
  holder: string;
  contract: string;
  first_block: number;
}

/** An owner's balance of one NFT (1 for ERC-721 and legacy), with the transfer that last changed it. */
export interface IndexerNftBalanceRow {
  network: string;
  owner: string;
  contract: string;
  token_id: string;
  kind: 'erc721' | 'erc1155' | 'legacy';
  /** Decimal; never 0 (the row is deleted), negative only for a contract whose logs contradict each other. */
  balance: string;
  last_block: number;
  last_log_index: number;
}

/** An account auth token for the webhook API (docs/webhooks.md#authentication): only its SHA-256 is kept. */
export interface AccountTokenRow {
  id: string;
  owner_id: string;
  name: string | null;
  token_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A webhook (docs/webhooks.md#webhook-object); filters are JSON arrays (empty: any). */
export interface WebhookRow {
  id: string;
  owner_id: string;
  type: 'NFT_ACTIVITY' | 'NFT_METADATA_UPDATE' | 'ADDRESS_ACTIVITY' | 'MINED_TRANSACTION' | 'DROPPED_TRANSACTION';
  network: string;
  url: string;
  /** JSON array of lowercase addresses. */
  contract_addresses: string;
  /** JSON array of decimal token ids. */
  token_ids: string;
  /** The HMAC-SHA256 key of its signatures, shown to its owner. */
  signing_key: string;
  state: 'active' | 'paused';
  paused_reason: string | null;
  /** Deliveries that finally failed since the last one that succeeded. */
  consecutive_failures: number;
  /** The next delivery's place in this webhook's order. */
  next_seq: number;
  created_at: number;
  updated_at: number;
  /** MINED_TRANSACTION and DROPPED_TRANSACTION: the app whose broadcasts it hears; null for other types. */
  app_id: string | null;
  /** A label its owner gave it; null when none. */
  name: string | null;
  /** JSON array of exact NFT filter entries, `{ contractAddress, tokenId }` (lowercase, decimal). */
  nft_tokens: string;
  /** ADDRESS_ACTIVITY: how many rows of webhook_addresses it has (kept in the same transactions). */
  address_count: number;
}

/** An address an ADDRESS_ACTIVITY webhook listens to; `network` is its webhook's, so a block is matched by (network, address). */
export interface WebhookAddressRow {
  webhook_id: string;
  network: string;
  /** Lowercase. */
  address: string;
}

/** A transaction an app broadcast through the gateway (eth_sendRawTransaction), watched until it is mined or dropped. */
export interface BroadcastTransactionRow {
  network: string;
  /** Lowercase. */
  hash: string;
  app_id: string;
  /** The signed transaction as broadcast (0x hex). */
  raw: string;
  status: 'pending' | 'mined' | 'dropped';
  broadcast_at: number;
  /** When the watcher looks at it next. */
  next_check_at: number;
  /** Its signer and nonce (decimal), read from `raw` when the watcher first looks at it. */
  sender: string | null;
  nonce: string | null;
  /** Where it was mined; null while pending or once dropped. */
  block_number: number | null;
  block_hash: string | null;
  settled_at: number | null;
}

/** One payload in the outbox, sent until a 2xx or its last retry. */
export interface WebhookDeliveryRow {
  id: string;
  webhook_id: string;
  seq: number;
  block_number: number | null;
  /** The exact body POSTed (and signed). */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: number;
  /** The delivery process sending it, until claim_expires_at. */
  claimed_by: string | null;
  claim_expires_at: number | null;
  created_at: number;
  completed_at: number | null;
  last_http_status: number | null;
  last_error: string | null;
}

/** One POST of a delivery; `sending` until its answer is recorded (`abandoned` when its process died). */
export interface WebhookAttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number | null;
  http_status: number | null;
  error: string | null;
  outcome: 'sending' | 'delivered' | 'failed' | 'abandoned';
}

/** A transfer a webhook was sent, kept while a reorg may still undo it. */
interface WebhookSentTransferRow {
  webhook_id: string;
  network: string;
  block_number: number;
  log_index: number;
  batch_index: number;
}

/** A native transfer an ADDRESS_ACTIVITY webhook was sent, kept while a reorg can undo it. */
interface WebhookSentNativeTransferRow {
  webhook_id: string;
  network: string;
  block_number: number;
  transaction_index: number;
  trace_index: number;
}

/** A token's metadata as last fetched (src/nfts/metadata/). */
export interface NftMetadataRow {
  network: string;
  contract: string;
  /** Decimal. */
  token_id: string;
  kind: 'erc721' | 'erc1155' | 'legacy';
  token_uri: string | null;
  raw_token_uri: string | null;
  /** JSON text of the document as given. */
  metadata: string | null;
  /** raw.error; error_code is the fetch layer's code (NftFetchErrorCode) or `contract` when the call failed. */
  error: string | null;
  error_code: string | null;
  name: string | null;
  description: string | null;
  /** The image URI the document gives (resolved when relative); image_url_sha256 its SHA-256, the key of nft_images. */
  image_url: string | null;
  image_url_sha256: string | null;
  /** When the stored content was fetched; checked_at: when it was last tried (a refresh that failed for a while keeps the content). */
  time_last_updated: number;
  checked_at: number;
}

/** An image URI's outcome: the media it gave, or why none (src/nfts/media/). */
export interface NftImageRow {
  url_sha256: string;
  media_sha256: string | null;
  error: string | null;
  error_code: string | null;
  fetched_at: number;
}

/** An image, by the SHA-256 of its bytes, with what is served for it. */
interface NftMediaRow {
  sha256: string;
  /** Measured from the bytes. */
  content_type: string;
  size: number;
  width: number | null;
  height: number | null;
  original: Uint8Array;
  thumbnail_type: string;
  thumbnail: Uint8Array;
  png: Uint8Array;
  created_at: number;
}

/** A contract's facts on one chain (src/nfts/contracts/), read from the chain and the index. */
export interface NftContractRow {
  network: string;
  /** Block 0's hash: the chain these facts are of. */
  genesis_hash: string;
  /** Lowercase. */
  contract: string;
  /** By ERC-165; `no-code`: nothing was deployed at the address when read. */
  standard: 'ERC721' | 'ERC1155' | 'none' | 'no-code';
  name: string | null;
  symbol: string | null;
  /** Decimal. */
  total_supply: string | null;
  /** The host of a held token's http(s) URI. */
  token_uri_host: string | null;
  /** The block the chain facts were read at, and when (ms since the epoch): read again after the TTL. */
  read_block: number;
  read_at: number;
  deployed_block: number | null;
  deployer: string | null;
  deployment: 'settled' | 'unknown';
  /** From the index when read: NFT transfers, their kinds (JSON array, most used first), and the largest mint to newcomers. */
  nft_transfers: number;
  event_kinds: string;
  fresh_mint_transaction: string | null;
  fresh_mint_recipients: number | null;
}

/** Where a marketplace event is: its contract, the listing it is about, and its log. */
interface NftMarketEventRow {
  network: string;
  marketplace: string;
  /** Decimal. */
  listing_id: string;
  block_number: number;
  log_index: number;
  transaction_hash: string;
}

/** A listing made (the marketplace's `Listed`); open while not cancelled and not sold out. */
export interface NftMarketListingRow extends NftMarketEventRow {
  seller: string;
  collection: string;
  token_id: string;
  quantity: number;
  /** The zero address: the chain's native currency. */
  currency: string;
  /** Decimal, in the currency's base units. */
  unit_price: string;
}

/** A listing cancelled (`Cancelled`). */
type NftMarketCancellationRow = NftMarketEventRow;

/** A sale (`Sold`): amounts decimal, in the currency's base units; the seller got price - marketplace_fee - royalty_fee. */
export interface NftMarketSaleRow extends NftMarketEventRow {
  block_timestamp: number | null;
  buyer: string;
  seller: string;
  collection: string;
  token_id: string;
  quantity: number;
  currency: string;
  price: string;
  marketplace_fee: string;
  royalty_receiver: string;
  royalty_fee: string;
}

/** The spam reports of one reporter about one contract (docs/nft-data.md#spam-reports). */
interface NftSpamReportRow {
  network: string;
  /** Lowercase. */
  contract: string;
  /** `app:<id>`, or `demo:<client address>` for the demo key. */
  reporter: string;
  reports: number;
  first_reported_at: number;
  last_reported_at: number;
}

/** A contract's metadata asked to be fetched again (reingestContract). */
interface NftReingestionRow {
  network: string;
  /** Lowercase. */
  contract: string;
  requested_at: number;
  /** The contract's held tokens when asked. */
  tokens: number;
}

/** One source's quote of one token in dollars (src/prices/, docs/prices.md#history). */
interface PriceObservationRow {
  /** `uniswap-v2:<network>:<pair>`, `oracle:<network>:<feed>`, `coinbase:ETH-USD`, … */
  source_id: string;
  symbol: string;
  observed_at: number;
  kind: 'amm-v2' | 'amm-v3' | 'oracle' | 'exchange';
  /** Decimal string, dollars. */
  value: string;
  liquidity_usd: string | null;
  volume_usd: string | null;
  /** JSON text: how a quote in another token became dollars; null for a quote in dollars. */
  conversion: string | null;
  recorded_at: number;
}

/** A token's latest aggregate, or why the last sample had none. */
export interface PriceCurrentRow {
  symbol: string;
  value: string | null;
  observed_at: number | null;
  error: string | null;
  /** JSON text: the sources used and dropped. */
  sources: string;
  sampled_at: number;
}

/** The aggregate at an interval boundary: the first sample at or after it within the interval. */
export interface PricePointRow {
  symbol: string;
  interval: '5m' | '1h' | '1d';
  bucket_start: number;
  value: string;
  observed_at: number;
}

/** A dashboard account (docs/dashboard.md#accounts); its id is the owner id of its apps, tokens and webhooks. */
export interface AccountRow {
  /** `acc_` and 16 hex digits. */
  id: string;
  /** Trimmed and lowercased. */
  email: string;
  /** `scrypt$N$r$p$salt$key`, salt and key in base64url. */
  password_hash: string;
  created_at: number;
  updated_at: number;
}

/** A signed-in browser: the SHA-256 of its session cookie, never the cookie itself. */
export interface SessionRow {
  /** SHA-256 hex of the cookie's value. */
  id_hash: string;
  account_id: string;
  /** What X-CSRF-Token must equal on this session's state changes. */
  csrf_token: string;
  created_at: number;
  last_used_at: number;
}
