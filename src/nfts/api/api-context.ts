import type { Kysely } from 'kysely';
import { getAddress, type Address } from 'viem';
import type { DatabaseSchema } from '../../db/schema.ts';
import { CrucibleError } from '../../errors/crucible-error.ts';
import { indexedBlock, type IndexedBlock } from '../../transfers/queries.ts';
import type { NftKind } from '../../transfers/transfer.ts';
import { tokenUriTimeoutMs, type TokenUriTimeoutLimits } from '../fetch-timeout.ts';
import { nftKey, type NftCollectionSource, type NftContractFacts, type NftContractSource, type NftMetadataSource, type NftRef } from '../nft-sources.ts';
import { nftBody } from './answer.ts';
import { indexedNftContracts } from './collection-reads.ts';
import { mintsOf } from './index-reads.ts';
import type { NftBody } from './schemas.ts';

// What every NFT endpoint of one network stands on (docs/nft-data.md): its sources and the steps
// they share: the index's head (every answer needs one), contract facts gathered once per answer,
// and NFT objects built from the metadata, the facts and the index's mints.

/** `getNFTMetadata?refreshCache=true`: a metadata source that can fetch a token again now. */
export interface NftMetadataRefresh {
  refresh(token: NftRef, options: { timeoutMs: number }): Promise<unknown>;
}

export interface NftApiOptions {
  network: string;
  db: Kysely<DatabaseSchema>;
  metadata: NftMetadataSource & Partial<NftMetadataRefresh>;
  contracts: NftContractSource;
  collections: NftCollectionSource;
  tokenUriTimeout: TokenUriTimeoutLimits;
  /** NFT_SPAM_AIRDROP_MIN_RECIPIENTS: a mint to at least this many addresses in one transaction is an airdrop. */
  airdropMinRecipients: number;
  /** PER_IP_IPV6_PREFIX: an IPv6 client counts per this prefix, as a reporter of spam too. */
  ipv6PrefixLength: number;
  /** Settles when the network's index can answer (a fresh devnet's first answer waits for it); default at once. */
  indexReady?: (network: string) => Promise<void>;
  now?: () => number;
}

export interface NftApiContext extends NftApiOptions {
  now: () => number;
  /** The index's head; 503 while it holds no block. */
  indexed(): Promise<IndexedBlock>;
  /** Adds to `into` (by lowercase address) the facts of the contracts not in it yet; a contract the source could not read stays missing. */
  factsInto(into: Map<string, NftContractFacts>, addresses: readonly Address[]): Promise<Map<string, NftContractFacts>>;
  /**
   * The facts of every NFT contract the index holds on the network (getSpamContracts, the search):
   * those stored, and at most READ_PER_LISTING more read from the node now; the others are read on
   * later calls or when another answer shows them, so one call never reads a whole network's contracts.
   */
  indexedContractFacts(): Promise<{ addresses: Address[]; facts: Map<string, NftContractFacts> }>;
  /** The fetch time a request's tokenUriTimeoutInMs gives (null: the cache alone). */
  timeoutOf(requested: number | undefined): number | null;
  /** NFT objects of these tokens, in their order: metadata within `timeoutMs`, the contracts' facts, the mints. */
  nftBodies(
    tokens: ReadonlyArray<{ contract: Address; tokenId: string; kind: NftKind }>,
    timeoutMs: number | null,
    facts?: Map<string, NftContractFacts>,
  ): Promise<NftBody[]>;
}

/** Contracts never read that one network-wide answer reads from the node: one Multicall3 batch of the contract source. */
const READ_PER_LISTING = 100;

export function createNftApiContext(options: NftApiOptions): NftApiContext {
  const { network, db } = options;
  const context: NftApiContext = {
    ...options,
    now: options.now ?? Date.now,
    async indexed() {
      await options.indexReady?.(network);
      const block = await indexedBlock(db, network);
      if (block) return block;
      throw new CrucibleError('upstream_unavailable', `The transfer index of network ${network} holds no block yet; NFT data needs it.`);
    },
    async factsInto(into, addresses) {
      const missing = [...new Set(addresses.map((address) => getAddress(address)))].filter((address) => !into.has(address.toLowerCase()));
      if (missing.length) for (const [address, facts] of await options.contracts.contractsOf(network, missing)) into.set(address.toLowerCase(), facts);
      return into;
    },
    async indexedContractFacts() {
      const [indexed, facts] = await Promise.all([indexedNftContracts(db, network), options.contracts.storedContractsOf(network)]);
      const addresses = indexed.map((address) => getAddress(address));
      const unread = addresses.filter((address) => !facts.has(address.toLowerCase())).slice(0, READ_PER_LISTING);
      if (unread.length) await context.factsInto(facts, unread);
      return { addresses, facts };
    },
    timeoutOf: (requested) => tokenUriTimeoutMs(options.tokenUriTimeout, requested),
    async nftBodies(tokens, timeoutMs, facts = new Map()) {
      const refs: NftRef[] = tokens.map((token) => ({ network, contract: token.contract, tokenId: token.tokenId, kind: token.kind }));
      const [records, mints] = await Promise.all([
        options.metadata.metadataOf(refs, { timeoutMs }),
        mintsOf(db, network, tokens),
        context.factsInto(
          facts,
          tokens.map((token) => token.contract),
        ),
      ]);
      return tokens.map((token, i) =>
        nftBody({
          ...token,
          facts: facts.get(token.contract.toLowerCase()),
          record: records.get(nftKey(refs[i]!)),
          mint: mints.get(`${token.contract.toLowerCase()}:${token.tokenId}`),
        }),
      );
    },
  };
  return context;
}
