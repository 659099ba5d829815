import { getAddress, type Address } from 'viem';
import { CrucibleError } from '../../errors/crucible-error.ts';
import type { NftContractFacts } from '../nft-sources.ts';
import type { NftApiContext } from './api-context.ts';
import { contractBody, isoOf, tokenTypeOf } from './answer.ts';
import { contractOwnerCount, contractOwners, contractTokens, holdsContract, ownerContracts, tokenOwners } from './collection-reads.ts';
import { allowedContracts } from './filters.ts';
import { indexedContractKind } from './index-reads.ts';
import type {
  CollectionQuery,
  ContractsForOwnerQuery,
  HolderOfContractQuery,
  NftsForCollectionQuery,
  NftsForContractQuery,
  OwnersForContractQuery,
  OwnersForNftQuery,
  SearchQuery,
} from './list-params.ts';
import type { CollectionBody, ContractNftsBody, ContractOwnersBody, OwnerContractBody, OwnerContractsBody } from './list-schemas.ts';
import {
  decodeContractOwnersKey,
  decodeContractTokensKey,
  decodeOwnerContractsKey,
  decodeTokenOwnersKey,
  encodeContractOwnersKey,
  encodeContractTokensKey,
  encodeOwnerContractsKey,
  encodeTokenOwnersKey,
} from './page-key.ts';
import { decimalTokenId, PAGE_KEY_ELSEWHERE } from './params.ts';
import type { NftContractBody } from './schemas.ts';

// The NFT lists of one network (docs/nft-data.md): a contract's or a collection's tokens, a token's
// and a contract's owners, an owner's contracts and whether it holds one, a registry collection,
// and the search of contracts by name. Ownership is the transfer index's at its head.

/** Owners per page of getOwnersForContract, and with withTokenBalances the balances per page (the incumbent's page). */
const OWNERS_PER_PAGE = 50_000;
/** Contracts a search answers at most. */
const SEARCH_RESULTS = 100;

export function listHandlers(context: NftApiContext) {
  const { network, db } = context;

  const notIndexed = (contract: Address) => new CrucibleError('not_found', `No NFT of contract ${contract} is indexed on network ${network}.`);

  const nftsForContract = async (query: NftsForContractQuery): Promise<ContractNftsBody> => {
    await context.indexed();
    const contract = getAddress(query.contractAddress);
    const kind = await indexedContractKind(db, network, contract);
    if (!kind) throw notIndexed(contract);
    const after = query.pageKey === undefined ? null : decodeContractTokensKey(contract, query.pageKey);
    if (query.pageKey !== undefined && after === null) throw new CrucibleError('bad_request', PAGE_KEY_ELSEWHERE);
    const from =
      after !== null
        ? { tokenId: after, inclusive: false }
        : query.startToken !== undefined
          ? { tokenId: decimalTokenId(query.startToken), inclusive: true }
          : undefined;
    const rows = await contractTokens(db, network, contract, { from, limit: query.limit });
    const page = rows.slice(0, query.limit);
    const pageKey = rows.length > query.limit ? encodeContractTokensKey(contract, page.at(-1)!.tokenId) : null;
    if (!query.withMetadata) {
      const facts = await context.factsInto(new Map(), [contract]);
      const tokenType = tokenTypeOf(kind, facts.get(contract.toLowerCase()));
      return { nfts: page.map((token) => ({ contract: { address: contract }, contractAddress: contract, tokenId: token.tokenId, tokenType })), pageKey };
    }
    const nfts = await context.nftBodies(
      page.map((token) => ({ contract, tokenId: token.tokenId, kind: token.kind })),
      context.timeoutOf(query.tokenUriTimeoutInMs),
    );
    return { nfts, pageKey };
  };

  /** A collection's contract on this network: the registry's by slug (404 when it has none here). */
  const collectionOf = (slug: string) => {
    const collection = context.collections.collectionOf(network, slug);
    if (!collection) throw new CrucibleError('not_found', `The collections registry has no collection ${slug} on network ${network}.`);
    return collection;
  };

  const nftsForCollection = async (query: NftsForCollectionQuery): Promise<ContractNftsBody> => {
    const contractAddress = query.contractAddress ?? collectionOf(query.collectionSlug!).contract;
    return nftsForContract({ ...query, contractAddress });
  };

  const ownersForNft = async (query: OwnersForNftQuery): Promise<{ owners: Address[]; pageKey: string | null }> => {
    await context.indexed();
    const contract = getAddress(query.contractAddress);
    const tokenId = decimalTokenId(query.tokenId);
    const after = query.pageKey === undefined ? undefined : decodeTokenOwnersKey(contract, tokenId, query.pageKey)!;
    const rows = await tokenOwners(db, network, contract, tokenId, { after, limit: query.pageSize });
    if (rows.length === 0 && after === undefined) {
      if (!(await indexedContractKind(db, network, contract))) throw notIndexed(contract);
      // A token of a known contract that nobody holds (never minted, or burned): no owners.
    }
    const owners = rows.slice(0, query.pageSize);
    return {
      owners: owners.map((owner) => getAddress(owner)),
      pageKey: rows.length > query.pageSize ? encodeTokenOwnersKey(contract, tokenId, owners.at(-1)!) : null,
    };
  };

  const ownersForContract = async (query: OwnersForContractQuery): Promise<ContractOwnersBody> => {
    const head = await context.indexed();
    const contract = getAddress(query.contractAddress);
    if (!(await indexedContractKind(db, network, contract))) throw notIndexed(contract);
    const after = query.pageKey === undefined ? undefined : decodeContractOwnersKey(contract, query.pageKey)!;
    const [page, totalCount] = await Promise.all([
      contractOwners(db, network, contract, { after, maxOwners: OWNERS_PER_PAGE, maxRows: OWNERS_PER_PAGE, withTokens: query.withTokenBalances }),
      query.includeCount ? contractOwnerCount(db, network, contract) : Promise.resolve(undefined),
    ]);
    const owners = query.withTokenBalances
      ? page.owners.map((holding) => ({ ownerAddress: getAddress(holding.owner), tokenBalances: holding.tokens }))
      : page.owners.map((holding) => getAddress(holding.owner));
    return {
      owners,
      pageKey: page.next ? encodeContractOwnersKey(contract, page.next) : null,
      ...(totalCount !== undefined && { totalCount }),
      validAt: { blockNumber: head.number, blockHash: head.hash, blockTimestamp: isoOf(head.timestamp) },
    };
  };

  const contractsForOwner = async (query: ContractsForOwnerQuery): Promise<OwnerContractsBody> => {
    await context.indexed();
    const owner = getAddress(query.owner);
    const byTime = query.orderBy !== undefined;
    const facts = new Map<string, NftContractFacts>();
    const allowed = await allowedContracts({
      db,
      network,
      owner,
      asked: undefined,
      exclude: query['excludeFilters[]'] ?? [],
      include: query['includeFilters[]'] ?? [],
      factsOf: (addresses) => context.factsInto(facts, addresses),
    });
    const allowedSet = allowed && new Set(allowed.map((address) => address.toLowerCase()));
    const held = (await ownerContracts(db, network, owner)).filter((contract) => !allowedSet || allowedSet.has(contract.contract));
    // Newest transfer first, or by address; the cursor is the last contract of the page in the same order.
    const key = (c: { contract: string; lastBlock: number; lastLogIndex: number }) => (byTime ? [-c.lastBlock, -c.lastLogIndex, c.contract] : [c.contract]);
    const compare = (a: Array<string | number>, b: Array<string | number>) => {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
      return 0;
    };
    held.sort((a, b) => compare(key(a), key(b)));
    const cursor = query.pageKey === undefined ? null : decodeOwnerContractsKey(owner, byTime, query.pageKey)!;
    const rest = cursor ? held.filter((contract) => compare(key(contract), key(cursor)) > 0) : held;
    const page = rest.slice(0, query.pageSize);
    const addresses = page.map((contract) => getAddress(contract.contract));
    await context.factsInto(facts, addresses);
    const displays = await context.nftBodies(
      page.map((contract, i) => ({ contract: addresses[i]!, tokenId: contract.firstTokenId, kind: contract.kind })),
      // The display token's stored metadata only: a page of contracts does not wait for fetches.
      null,
      facts,
    );
    const contracts = page.map((held, i): OwnerContractBody => {
      const known = facts.get(held.contract);
      const { isSpam, spamClassifications, ...contract } = contractBody(addresses[i]!, held.kind, known);
      return {
        ...contract,
        totalBalance: held.totalBalance,
        numDistinctTokensOwned: String(held.distinctTokens),
        isSpam: isSpam === true,
        spamClassifications,
        displayNft: { tokenId: held.firstTokenId, name: displays[i]!.name },
        image: displays[i]!.image,
      };
    });
    const last = page.at(-1);
    return {
      contracts,
      pageKey: rest.length > page.length && last ? encodeOwnerContractsKey(owner, byTime, last) : null,
      totalCount: held.length,
    };
  };

  const isHolderOfContract = async (query: HolderOfContractQuery): Promise<{ isHolderOfContract: boolean }> => {
    await context.indexed();
    return { isHolderOfContract: await holdsContract(db, network, getAddress(query.wallet), getAddress(query.contractAddress)) };
  };

  const collectionMetadata = async (query: CollectionQuery): Promise<CollectionBody> => {
    const collection = collectionOf(query.collectionSlug);
    return {
      name: collection.name,
      slug: collection.slug,
      floorPrice: {
        marketplace: null,
        floorPrice: collection.floorPrice,
        priceCurrency: collection.floorPrice === null ? null : context.collections.nativeCurrencyOf(network),
      },
      description: collection.description,
      externalUrl: collection.externalUrl,
      twitterUsername: collection.socialUsername,
      discordUrl: collection.discordUrl,
      imageUrl: collection.imageUrl,
      bannerImageUrl: collection.bannerImageUrl,
      contractAddress: collection.contract,
    };
  };

  /** Contracts of the index whose name, symbol or collection name holds every word of the query. */
  const searchContractMetadata = async (query: SearchQuery): Promise<{ contracts: NftContractBody[] }> => {
    await context.indexed();
    const words = query.query.toLowerCase().split(/\s+/);
    const { addresses, facts } = await context.indexedContractFacts();
    const matching = addresses.filter((address) => {
      const known = facts.get(address.toLowerCase());
      const text = [known?.name, known?.symbol, known?.marketplaceMetadata.collectionName].filter(Boolean).join(' ').toLowerCase();
      return words.every((word) => text.includes(word));
    });
    const kinds = await Promise.all(matching.slice(0, SEARCH_RESULTS).map((address) => indexedContractKind(db, network, address)));
    return { contracts: matching.slice(0, SEARCH_RESULTS).map((address, i) => contractBody(address, kinds[i]!, facts.get(address.toLowerCase()))) };
  };

  return {
    nftsForContract,
    nftsForCollection,
    ownersForNft,
    ownersForContract,
    contractsForOwner,
    isHolderOfContract,
    collectionMetadata,
    searchContractMetadata,
  };
}
