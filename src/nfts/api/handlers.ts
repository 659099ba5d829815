import type { Kysely } from 'kysely';
import { getAddress, type Address } from 'viem';
import type { DatabaseSchema } from '../../db/schema.ts';
import { indexedBlock, nftsOfOwner, type IndexedBlock } from '../../transfers/queries.ts';
import { CrucibleError } from '../../errors/crucible-error.ts';
import { tokenUriTimeoutMs, type TokenUriTimeoutLimits } from '../fetch-timeout.ts';
import { nftKey, type NftContractFacts, type NftContractSource, type NftMetadataSource, type NftRef } from '../nft-sources.ts';
import { acquiredAtBody, contractBody, isoOf, nftBody, tokenTypeOf } from './answer.ts';
import { allowedContracts } from './filters.ts';
import { acquisitionsOf, indexedContractKind, indexedTokenKind, mintsOf } from './index-reads.ts';
import { decodeNftPageKey, encodeNftPageKey } from './page-key.ts';
import type { ContractMetadataQuery, NftMetadataQuery, NftsForOwnerQuery } from './params.ts';
import type { NftBody, NftContractBody, OwnedNftBody, OwnedNftIdBody, OwnedNftsBody } from './schemas.ts';

// The NFT endpoints of one network (docs/nft-data.md) as plain answers: ownership and balances from
// the transfer index, metadata from an NftMetadataSource, contract facts from an NftContractSource.
// The keyed REST door (src/rest/door.ts) routes to them through their entries (./operations.ts),
// with the query validated and the call charged; a refusal is a thrown CrucibleError.

/** `getNFTMetadata?refreshCache=true`: a metadata source that can fetch a token again now. */
export interface NftMetadataRefresh {
  refresh(token: NftRef, options: { timeoutMs: number }): Promise<unknown>;
}

export interface NftApiOptions {
  network: string;
  db: Kysely<DatabaseSchema>;
  metadata: NftMetadataSource & Partial<NftMetadataRefresh>;
  contracts: NftContractSource;
  tokenUriTimeout: TokenUriTimeoutLimits;
  /** Settles when the network's index can answer (a fresh devnet's first answer waits for it); default at once. */
  indexReady?: (network: string) => Promise<void>;
}

export interface NftApi {
  nftsForOwner(query: NftsForOwnerQuery): Promise<OwnedNftsBody>;
  nftMetadata(query: NftMetadataQuery): Promise<NftBody>;
  contractMetadata(query: ContractMetadataQuery): Promise<NftContractBody>;
}

function createNftApi(options: NftApiOptions): NftApi {
  const { network, db } = options;
  /** The index's head: every answer needs one. */
  const indexed = async (): Promise<IndexedBlock> => {
    await options.indexReady?.(network);
    const block = await indexedBlock(db, network);
    if (block) return block;
    throw new CrucibleError('upstream_unavailable', `The transfer index of network ${network} holds no block yet; NFT data needs it.`);
  };

  const nftsForOwner = async (query: NftsForOwnerQuery): Promise<OwnedNftsBody> => {
    await indexed();
    const owner = getAddress(query.owner);
    const orderBy = query.orderBy ?? 'contract';
    // The query's own check refused a pageKey this did not give for the order.
    const after = query.pageKey === undefined ? null : decodeNftPageKey(orderBy, query.pageKey);
    const asked = query['contractAddresses[]']?.length ? query['contractAddresses[]'].map((address) => getAddress(address)) : undefined;
    const facts = new Map<string, NftContractFacts>();
    const contracts = await allowedContracts({
      db,
      network,
      owner,
      asked,
      exclude: query['excludeFilters[]'] ?? [],
      include: query['includeFilters[]'] ?? [],
      factsOf: (addresses) => factsInto(facts, addresses),
    });
    const page = await nftsOfOwner(db, network, owner, { contracts, orderBy, after: after ?? undefined, limit: query.pageSize });
    let ownedNfts: OwnedNftBody[] | OwnedNftIdBody[];
    if (!query.withMetadata) {
      ownedNfts = page.nfts.map((nft) => ({
        contract: { address: nft.contract },
        // alchemy-sdk 3 reads `contractAddress` when metadata is omitted; docs/nft-data.md#nft-object nests it in `contract`: both are sent.
        contractAddress: nft.contract,
        tokenId: nft.tokenId,
        tokenType: tokenTypeOf(nft.kind, undefined),
        balance: nft.balance,
      }));
    } else {
      const refs: NftRef[] = page.nfts.map((nft) => ({ network, contract: nft.contract, tokenId: nft.tokenId, kind: nft.kind }));
      const [records, mints, acquired] = await Promise.all([
        options.metadata.metadataOf(refs, { timeoutMs: tokenUriTimeoutMs(options.tokenUriTimeout, query.tokenUriTimeoutInMs) }),
        mintsOf(db, network, page.nfts),
        acquisitionsOf(db, network, owner, page.nfts),
        factsInto(
          facts,
          page.nfts.map((nft) => nft.contract),
        ),
      ]);
      ownedNfts = page.nfts.map((nft, i) => {
        const key = `${nft.contract.toLowerCase()}:${nft.tokenId}`;
        return {
          ...nftBody({ ...nft, facts: facts.get(nft.contract.toLowerCase()), record: records.get(nftKey(refs[i]!)), mint: mints.get(key) }),
          balance: nft.balance,
          acquiredAt: acquiredAtBody(acquired.get(key)),
        };
      });
    }
    const validAt = page.validAt;
    const body: OwnedNftsBody = {
      ownedNfts,
      totalCount: page.totalCount,
      pageKey: page.next ? encodeNftPageKey(orderBy, page.next) : null,
      validAt: { blockNumber: validAt?.number ?? null, blockHash: validAt?.hash ?? null, blockTimestamp: isoOf(validAt?.timestamp ?? null) },
    };
    return body;
  };

  /** Adds the facts of the contracts not yet in `into`; a contract the source could not read stays missing. */
  const factsInto = async (into: Map<string, NftContractFacts>, addresses: readonly Address[]): Promise<Map<string, NftContractFacts>> => {
    const missing = [...new Set(addresses.map((address) => getAddress(address)))].filter((address) => !into.has(address.toLowerCase()));
    if (missing.length) for (const [address, facts] of await options.contracts.contractsOf(network, missing)) into.set(address.toLowerCase(), facts);
    return into;
  };

  const nftMetadata = async (query: NftMetadataQuery): Promise<NftBody> => {
    await indexed();
    const contract = getAddress(query.contractAddress);
    const tokenId = BigInt(query.tokenId).toString();
    const kind = await indexedTokenKind(db, network, contract, tokenId);
    if (!kind) throw new CrucibleError('not_found', `No transfer of token ${tokenId} of contract ${contract} is indexed on network ${network}.`);
    const ref: NftRef = { network, contract, tokenId, kind };
    const timeoutMs = tokenUriTimeoutMs(options.tokenUriTimeout, query.tokenUriTimeoutInMs);
    // A refresh fetches now, so it takes the default time even where 0 asked for the cache alone.
    if (query.refreshCache && options.metadata.refresh) await options.metadata.refresh(ref, { timeoutMs: timeoutMs ?? options.tokenUriTimeout.defaultMs });
    const [records, facts, mints] = await Promise.all([
      options.metadata.metadataOf([ref], { timeoutMs }),
      options.contracts.contractsOf(network, [contract]),
      mintsOf(db, network, [ref]),
    ]);
    return nftBody({
      contract,
      tokenId,
      kind,
      facts: facts.get(contract.toLowerCase()),
      record: records.get(nftKey(ref)),
      mint: mints.get(`${contract.toLowerCase()}:${tokenId}`),
    });
  };

  const contractMetadata = async (query: ContractMetadataQuery): Promise<NftContractBody> => {
    await indexed();
    const contract = getAddress(query.contractAddress);
    const [facts, kind] = await Promise.all([options.contracts.contractsOf(network, [contract]), indexedContractKind(db, network, contract)]);
    const known = facts.get(contract.toLowerCase());
    if (!known && !kind) throw new CrucibleError('not_found', `No NFT of contract ${contract} is indexed on network ${network}.`);
    return contractBody(contract, kind, known);
  };

  return { nftsForOwner, nftMetadata, contractMetadata };
}

/** The NFT endpoints of each network in `networks` (those that speak the EVM's JSON-RPC), made when first asked for; null elsewhere (404). */
export function nftApisOf(networks: readonly string[], sources: Omit<NftApiOptions, 'network'>): (network: string | null) => NftApi | null {
  const served = new Set(networks);
  const apis = new Map<string, NftApi>();
  return (network) => {
    if (network === null || !served.has(network)) return null;
    let api = apis.get(network);
    if (!api) apis.set(network, (api = createNftApi({ network, ...sources })));
    return api;
  };
}
