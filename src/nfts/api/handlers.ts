import type { Kysely } from 'kysely';
import { getAddress, type Address } from 'viem';
import type { DatabaseSchema } from '../../db/schema.ts';
import { indexedBlock, nftsOfOwner, type IndexedBlock } from '../../indexer/queries.ts';
import { tokenUriTimeoutMs, type TokenUriTimeoutLimits } from '../fetch-timeout.ts';
import { nftKey, type NftContractFacts, type NftContractSource, type NftMetadataSource, type NftRef } from '../ports.ts';
import { acquiredAtBody, contractBody, isoOf, nftBody, tokenTypeOf } from './answer.ts';
import type { NftEndpointName } from './endpoints.ts';
import { nftFailure, type NftAnswer } from './errors.ts';
import { allowedContracts } from './filters.ts';
import { acquisitionsOf, indexedContractKind, indexedTokenKind, mintsOf } from './index-reads.ts';
import { decodeNftPageKey, encodeNftPageKey } from './page-key.ts';
import { parseNftQuery, type ContractMetadataQuery, type NftMetadataQuery, type NftsForOwnerQuery } from './params.ts';
import type { OwnedNftBody, OwnedNftIdBody, OwnedNftsBody } from './schemas.ts';

// The NFT endpoints of one network (platform §5) as plain answers: ownership and balances from the
// transfer index, metadata from an NftMetadataSource, contract facts from an NftContractSource. The
// gateway routes to them, checks the key and charges the compute units between `prepare` (the query
// checked, nothing read) and `run`.

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
  /** This node's OpenAPI document: Error bodies point there. */
  documentationUrl: string;
}

type PreparedNftCall = { ok: false; answer: NftAnswer } | { ok: true; run(): Promise<NftAnswer> };

export interface NftApi {
  /** Checks the query of `endpoint`: a bad one is answered (400), a good one is a call to run. */
  prepare(endpoint: NftEndpointName, search: string): PreparedNftCall;
}

export function createNftApi(options: NftApiOptions): NftApi {
  const { network, db, documentationUrl } = options;
  const bad = (problem: string): PreparedNftCall => ({ ok: false, answer: nftFailure('bad_request', problem, documentationUrl) });
  const indexed = async (): Promise<IndexedBlock | NftAnswer> => {
    const block = await indexedBlock(db, network);
    if (block) return block;
    return nftFailure('upstream_unavailable', `The transfer index of network ${network} holds no block yet; NFT data needs it.`, documentationUrl);
  };

  const nftsForOwner = async (query: NftsForOwnerQuery, after: ReturnType<typeof decodeNftPageKey>): Promise<NftAnswer> => {
    const ready = await indexed();
    if ('status' in ready) return ready;
    const owner = getAddress(query.owner);
    const orderBy = query.orderBy ?? 'contract';
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
        // alchemy-sdk 3 reads `contractAddress` when metadata is omitted; spec 2.11 nests it in `contract`: both are sent.
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
    return { status: 200, body };
  };

  /** Adds the facts of the contracts not yet in `into`; a contract the source could not read stays missing. */
  const factsInto = async (into: Map<string, NftContractFacts>, addresses: readonly Address[]): Promise<Map<string, NftContractFacts>> => {
    const missing = [...new Set(addresses.map((address) => getAddress(address)))].filter((address) => !into.has(address.toLowerCase()));
    if (missing.length) for (const [address, facts] of await options.contracts.contractsOf(network, missing)) into.set(address.toLowerCase(), facts);
    return into;
  };

  const nftMetadata = async (query: NftMetadataQuery): Promise<NftAnswer> => {
    const ready = await indexed();
    if ('status' in ready) return ready;
    const contract = getAddress(query.contractAddress);
    const tokenId = BigInt(query.tokenId).toString();
    const kind = await indexedTokenKind(db, network, contract, tokenId);
    if (!kind) return nftFailure('not_found', `No transfer of token ${tokenId} of contract ${contract} is indexed on network ${network}.`, documentationUrl);
    const ref: NftRef = { network, contract, tokenId, kind };
    const timeoutMs = tokenUriTimeoutMs(options.tokenUriTimeout, query.tokenUriTimeoutInMs);
    // A refresh fetches now, so it takes the default time even where 0 asked for the cache alone.
    if (query.refreshCache && options.metadata.refresh) await options.metadata.refresh(ref, { timeoutMs: timeoutMs ?? options.tokenUriTimeout.defaultMs });
    const [records, facts, mints] = await Promise.all([
      options.metadata.metadataOf([ref], { timeoutMs }),
      options.contracts.contractsOf(network, [contract]),
      mintsOf(db, network, [ref]),
    ]);
    const body = nftBody({
      contract,
      tokenId,
      kind,
      facts: facts.get(contract.toLowerCase()),
      record: records.get(nftKey(ref)),
      mint: mints.get(`${contract.toLowerCase()}:${tokenId}`),
    });
    return { status: 200, body };
  };

  const contractMetadata = async (query: ContractMetadataQuery): Promise<NftAnswer> => {
    const ready = await indexed();
    if ('status' in ready) return ready;
    const contract = getAddress(query.contractAddress);
    const [facts, kind] = await Promise.all([options.contracts.contractsOf(network, [contract]), indexedContractKind(db, network, contract)]);
    const known = facts.get(contract.toLowerCase());
    if (!known && !kind) return nftFailure('not_found', `No NFT of contract ${contract} is indexed on network ${network}.`, documentationUrl);
    return { status: 200, body: contractBody(contract, kind, known) };
  };

  return {
    prepare(endpoint, search) {
      switch (endpoint) {
        case 'getNFTs':
        case 'getNFTsForOwner': {
          const parsed = parseNftQuery(endpoint, search);
          if (!parsed.ok) return bad(parsed.problem);
          const { query } = parsed;
          const after = query.pageKey === undefined ? null : decodeNftPageKey(query.orderBy ?? 'contract', query.pageKey);
          if (query.pageKey !== undefined && !after)
            return bad('pageKey is not one this endpoint gave for this orderBy; pass the pageKey of the previous answer as it was given.');
          return { ok: true, run: () => nftsForOwner(query, after) };
        }
        case 'getNFTMetadata': {
          const parsed = parseNftQuery(endpoint, search);
          return parsed.ok ? { ok: true, run: () => nftMetadata(parsed.query) } : bad(parsed.problem);
        }
        case 'getContractMetadata': {
          const parsed = parseNftQuery(endpoint, search);
          return parsed.ok ? { ok: true, run: () => contractMetadata(parsed.query) } : bad(parsed.problem);
        }
      }
    },
  };
}
