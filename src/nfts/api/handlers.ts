import { getAddress } from 'viem';
import { nftsOfOwner } from '../../transfers/queries.ts';
import { CrucibleError } from '../../errors/crucible-error.ts';
import type { NftContractFacts, NftRef } from '../nft-sources.ts';
import { createNftApiContext, type NftApiContext, type NftApiOptions } from './api-context.ts';
import { acquiredAtBody, contractBody, isoOf, tokenTypeOf, unindexedNftBody } from './answer.ts';
import { attributeHandlers } from './attribute-handlers.ts';
import { allowedContracts } from './filters.ts';
import { acquisitionsOf, indexedContractKind, indexedTokenKind } from './index-reads.ts';
import { listHandlers } from './list-handlers.ts';
import { decodeOwnerNftsKey, encodeOwnerNftsKey } from './page-key.ts';
import {
  decimalTokenId,
  ownerOrder,
  type ContractMetadataBatchBody,
  type ContractQuery,
  type NftMetadataBatchBody,
  type NftMetadataQuery,
  type NftsForOwnerQuery,
} from './params.ts';
import { refreshHandlers } from './refresh-handlers.ts';
import type { NftBody, NftContractBody, OwnedNftIdBody, OwnedNftsBody } from './schemas.ts';
import { spamHandlers } from './spam-handlers.ts';

// The NFT endpoints of one network (docs/nft-data.md) as plain answers: ownership and balances from
// the transfer index, metadata from an NftMetadataSource, contract facts from an NftContractSource.
// The keyed REST door (src/rest/door.ts) routes to them through their entries (./operations.ts),
// with the input validated and the call charged; a refusal is a thrown CrucibleError. This file has
// an owner's NFTs and the metadata of tokens and contracts; the lists, spam, attributes and
// refreshes have their own files.

export type { NftApiOptions } from './api-context.ts';

function metadataHandlers(context: NftApiContext) {
  const { network, db } = context;

  const nftsForOwner = async (query: NftsForOwnerQuery): Promise<OwnedNftsBody> => {
    await context.indexed();
    const owner = getAddress(query.owner);
    const orderBy = ownerOrder(query);
    // The query's own check refused a pageKey this did not give for the owner and order.
    const after = query.pageKey === undefined ? null : decodeOwnerNftsKey(owner, orderBy, query.pageKey);
    const asked = query['contractAddresses[]']?.length ? query['contractAddresses[]'].map((address) => getAddress(address)) : undefined;
    const facts = new Map<string, NftContractFacts>();
    const contracts = await allowedContracts({
      db,
      network,
      owner,
      asked,
      exclude: query['excludeFilters[]'] ?? [],
      include: query['includeFilters[]'] ?? [],
      factsOf: (addresses) => context.factsInto(facts, addresses),
    });
    const page = await nftsOfOwner(db, network, owner, { contracts, orderBy, after: after ?? undefined, limit: query.pageSize });
    let ownedNfts: OwnedNftsBody['ownedNfts'];
    if (!query.withMetadata) {
      ownedNfts = page.nfts.map(
        (nft): OwnedNftIdBody => ({
          contract: { address: nft.contract },
          // alchemy-sdk 3 reads `contractAddress` when metadata is omitted; docs/nft-data.md#nft-object nests it in `contract`: both are sent.
          contractAddress: nft.contract,
          tokenId: nft.tokenId,
          tokenType: tokenTypeOf(nft.kind, undefined),
          balance: nft.balance,
        }),
      );
    } else {
      const [bodies, acquired] = await Promise.all([
        context.nftBodies(page.nfts, context.timeoutOf(query.tokenUriTimeoutInMs), facts),
        acquisitionsOf(db, network, owner, page.nfts),
      ]);
      ownedNfts = page.nfts.map((nft, i) => ({
        ...bodies[i]!,
        balance: nft.balance,
        acquiredAt: acquiredAtBody(acquired.get(`${nft.contract.toLowerCase()}:${nft.tokenId}`)),
      }));
    }
    const validAt = page.validAt;
    return {
      ownedNfts,
      totalCount: page.totalCount,
      pageKey: page.next ? encodeOwnerNftsKey(owner, orderBy, page.next) : null,
      validAt: { blockNumber: validAt?.number ?? null, blockHash: validAt?.hash ?? null, blockTimestamp: isoOf(validAt?.timestamp ?? null) },
    };
  };

  const nftMetadata = async (query: NftMetadataQuery): Promise<NftBody> => {
    await context.indexed();
    const contract = getAddress(query.contractAddress);
    const tokenId = decimalTokenId(query.tokenId);
    const kind = await indexedTokenKind(db, network, contract, tokenId);
    if (!kind) throw new CrucibleError('not_found', `No transfer of token ${tokenId} of contract ${contract} is indexed on network ${network}.`);
    const ref: NftRef = { network, contract, tokenId, kind };
    const timeoutMs = context.timeoutOf(query.tokenUriTimeoutInMs);
    // A refresh fetches now, so it takes the default time even where 0 asked for the cache alone.
    if (query.refreshCache && context.metadata.refresh) await context.metadata.refresh(ref, { timeoutMs: timeoutMs ?? context.tokenUriTimeout.defaultMs });
    const [body] = await context.nftBodies([ref], timeoutMs);
    return body!;
  };

  /** The tokens in the order asked; one the index never saw is answered with its contract and `raw.error` saying so. */
  const nftMetadataBatch = async (body: NftMetadataBatchBody): Promise<{ nfts: NftBody[] }> => {
    await context.indexed();
    const tokens = body.tokens.map((token) => ({ contract: getAddress(token.contractAddress), tokenId: decimalTokenId(token.tokenId) }));
    const kinds = await Promise.all(tokens.map((token) => indexedTokenKind(db, network, token.contract, token.tokenId)));
    const known = tokens.flatMap((token, i) => (kinds[i] ? [{ ...token, kind: kinds[i] }] : []));
    const timeoutMs = context.timeoutOf(body.tokenUriTimeoutInMs);
    if (body.refreshCache && context.metadata.refresh) {
      const refreshMs = timeoutMs ?? context.tokenUriTimeout.defaultMs;
      await Promise.all(known.map((token) => context.metadata.refresh!({ network, ...token }, { timeoutMs: refreshMs })));
    }
    const facts = await context.factsInto(
      new Map(),
      tokens.map((token) => token.contract),
    );
    const bodies = await context.nftBodies(known, timeoutMs, facts);
    const byToken = new Map(known.map((token, i) => [`${token.contract}:${token.tokenId}`, bodies[i]!]));
    const nfts = tokens.map(
      (token) => byToken.get(`${token.contract}:${token.tokenId}`) ?? unindexedNftBody(token.contract, token.tokenId, facts.get(token.contract.toLowerCase())),
    );
    return { nfts };
  };

  const contractMetadata = async (query: ContractQuery): Promise<NftContractBody> => {
    await context.indexed();
    const contract = getAddress(query.contractAddress);
    const [facts, kind] = await Promise.all([context.contracts.contractsOf(network, [contract]), indexedContractKind(db, network, contract)]);
    const known = facts.get(contract.toLowerCase());
    if (!known && !kind) throw new CrucibleError('not_found', `No NFT of contract ${contract} is indexed on network ${network}.`);
    return contractBody(contract, kind, known);
  };

  /** The contracts in the order asked, each with what is known of it (every field null for a contract nobody could read). */
  const contractMetadataBatch = async (body: ContractMetadataBatchBody): Promise<{ contracts: NftContractBody[] }> => {
    await context.indexed();
    const contracts = body.contractAddresses.map((address) => getAddress(address));
    const [facts, kinds] = await Promise.all([
      context.factsInto(new Map(), contracts),
      Promise.all(contracts.map((contract) => indexedContractKind(db, network, contract))),
    ]);
    return { contracts: contracts.map((contract, i) => contractBody(contract, kinds[i]!, facts.get(contract.toLowerCase()))) };
  };

  return { nftsForOwner, nftMetadata, nftMetadataBatch, contractMetadata, contractMetadataBatch };
}

export type NftApi = ReturnType<typeof metadataHandlers> &
  ReturnType<typeof listHandlers> &
  ReturnType<typeof spamHandlers> &
  ReturnType<typeof attributeHandlers> &
  ReturnType<typeof refreshHandlers>;

function createNftApi(options: NftApiOptions): NftApi {
  const context = createNftApiContext(options);
  return {
    ...metadataHandlers(context),
    ...listHandlers(context),
    ...spamHandlers(context),
    ...attributeHandlers(context),
    ...refreshHandlers(context),
  };
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
