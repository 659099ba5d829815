import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ContractsForOwnerQuery,
  HolderOfContractQuery,
  NftsForCollectionQuery,
  NftsForContractQuery,
  OwnersForContractQuery,
  OwnersForNftQuery,
  SearchQuery,
} from '../../../../src/nfts/api/list-params.ts';
import { encodeContractTokensKey, encodeOwnerNftsKey } from '../../../../src/nfts/api/page-key.ts';
import { NftMetadataBatchBody, NftMetadataQuery, NftsForOwnerQuery } from '../../../../src/nfts/api/params.ts';
import { readSdkQuery } from '../../../../src/rest/query.ts';

// The NFT endpoints' query parameters (docs/nft-data.md#getnfts-and-getnftsforowner): defaults, limits, the SDK's list spellings.

const OWNER = '0x4c7E7865D1a8F526DA67ccC11eE9960C30e7a1Ae';
const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';

const schemas = { getNFTs: NftsForOwnerQuery, getNFTsForOwner: NftsForOwnerQuery, getNFTMetadata: NftMetadataQuery } as const;
const parseNftQuery = (endpoint: keyof typeof schemas, search: string) =>
  readSdkQuery(schemas[endpoint] as z.ZodObject, search) as { ok: true; query: Record<string, unknown> } | { ok: false; problem: string };

describe('the NFT queries as alchemy-sdk sends them', () => {
  it('applies the defaults and ignores unknown parameters', () => {
    const parsed = parseNftQuery('getNFTs', `?owner=${OWNER}&colour=blue`);
    expect(parsed).toEqual({ ok: true, query: { owner: OWNER, pageSize: 100, withMetadata: true } });
  });

  it('reads lists as name[]= and as name= repeated, together, skipping empty items', () => {
    const parsed = parseNftQuery(
      'getNFTsForOwner',
      `owner=${OWNER}&contractAddresses[]=${A}&contractAddresses=${B}&contractAddresses[]=&excludeFilters%5B%5D=SPAM`,
    );
    expect(parsed.ok && parsed.query).toMatchObject({ 'contractAddresses[]': [A, B], 'excludeFilters[]': ['SPAM'] });
  });

  it.each([
    ['', /owner is required/],
    [`owner=${OWNER.slice(0, 20)}`, /^owner must be an address/],
    [`owner=${OWNER}&pageSize=0`, /pageSize must be at least 1/],
    [`owner=${OWNER}&pageSize=101`, /pageSize must be at most 100/],
    [`owner=${OWNER}&pageSize=2.5`, /pageSize/],
    [`owner=${OWNER}&withMetadata=perhaps`, /withMetadata/],
    [`owner=${OWNER}&${Array.from({ length: 46 }, () => `contractAddresses[]=${A}`).join('&')}`, /at most 45 items/],
    [`owner=${OWNER}&excludeFilters[]=SPAM&includeFilters[]=SPAM`, /together/],
    [`owner=${OWNER}&orderBy=tokenId`, /orderBy must be one of transferTime, TRANSFERTIME/],
    [`owner=${OWNER}&owner=${OWNER}`, /owner is given 2 times/],
    [`owner=%zz`, /percent-encoding/],
  ])('refuses %s', (query, problem) => {
    const parsed = parseNftQuery('getNFTs', query);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatch(problem);
  });

  it('takes token ids in decimal and 0x hex, below 2^256', () => {
    expect(parseNftQuery('getNFTMetadata', `contractAddress=${A}&tokenId=0x64`).ok).toBe(true);
    expect(parseNftQuery('getNFTMetadata', `contractAddress=${A}&tokenId=${2n ** 256n - 1n}`).ok).toBe(true);
    expect(parseNftQuery('getNFTMetadata', `contractAddress=${A}&tokenId=${2n ** 256n}`).ok).toBe(false);
    expect(parseNftQuery('getNFTMetadata', `contractAddress=${A}&tokenId=1.5`).ok).toBe(false);
    const parsed = parseNftQuery('getNFTMetadata', `contractAddress=${A}&tokenId=7&refreshCache=true&tokenUriTimeoutInMs=0`);
    expect(parsed.ok && parsed.query).toMatchObject({ refreshCache: true, tokenUriTimeoutInMs: 0 });
  });
});

describe('the NFT list queries', () => {
  const read = (schema: z.ZodObject, search: string) =>
    readSdkQuery(schema, search) as { ok: true; query: Record<string, unknown> } | { ok: false; problem: string };

  it('takes TRANSFERTIME as alchemy-sdk sends it, and transferTime', () => {
    for (const order of ['TRANSFERTIME', 'transferTime']) expect(read(NftsForOwnerQuery, `owner=${OWNER}&orderBy=${order}`).ok).toBe(true);
    expect(read(ContractsForOwnerQuery, `owner=${OWNER}&orderBy=TRANSFERTIME`).ok).toBe(true);
  });

  it("refuses a pageKey given for another owner, contract or token, and one of another list's", () => {
    const ownerKey = encodeOwnerNftsKey(OWNER, 'contract', { contract: A, tokenId: '1', lastBlock: 1, lastLogIndex: 0 });
    expect(read(NftsForOwnerQuery, `owner=${OWNER}&pageKey=${ownerKey}`).ok).toBe(true);
    expect(read(NftsForOwnerQuery, `owner=${B}&pageKey=${ownerKey}`)).toEqual({ ok: false, problem: expect.stringMatching(/pageKey is not one/) });
    const tokensKey = encodeContractTokensKey(A, '5');
    expect(read(NftsForContractQuery, `contractAddress=${A}&pageKey=${tokensKey}`).ok).toBe(true);
    expect(read(NftsForContractQuery, `contractAddress=${B}&pageKey=${tokensKey}`).ok).toBe(false);
    expect(read(OwnersForContractQuery, `contractAddress=${A}&pageKey=${tokensKey}`).ok).toBe(false);
    expect(read(OwnersForNftQuery, `contractAddress=${A}&tokenId=5&pageKey=${tokensKey}`).ok).toBe(false);
    expect(read(ContractsForOwnerQuery, `owner=${OWNER}&pageKey=${ownerKey}`).ok).toBe(false);
  });

  it.each([
    [NftsForContractQuery, `contractAddress=${A}&startToken=1&pageKey=${encodeContractTokensKey(A, '5')}`, /startToken and pageKey/],
    [NftsForContractQuery, `contractAddress=${A}&limit=101`, /limit must be at most 100/],
    [NftsForCollectionQuery, `collectionSlug=crucible-relics&contractAddress=${A}`, /exactly one of contractAddress and collectionSlug/],
    [NftsForCollectionQuery, '', /exactly one/],
    [NftsForCollectionQuery, 'collectionSlug=Crucible_Relics', /collectionSlug must be a collection slug/],
    [OwnersForContractQuery, `contractAddress=${A}&block=latest`, /block is not supported/],
    [OwnersForNftQuery, `contractAddress=${A}&tokenId=-1`, /tokenId/],
    [HolderOfContractQuery, `contractAddress=${A}`, /wallet is required/],
    [SearchQuery, 'query=%20%20', /query must be at least 1 character\(s\) long/],
    [ContractsForOwnerQuery, `owner=${OWNER}&excludeFilters[]=SPAM&includeFilters[]=SPAM`, /together/],
  ] as const)('refuses %#: %s', (schema, search, problem) => {
    const parsed = read(schema, search);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatch(problem);
  });

  it('takes batch bodies with token ids as decimal or hex strings and as numbers, 1 to 100 of them', () => {
    const tokens = [
      { contractAddress: A, tokenId: '0x10' },
      { contractAddress: A, tokenId: 2 },
      { contractAddress: B, tokenId: '7', tokenType: 'ERC1155' },
    ];
    expect(NftMetadataBatchBody.safeParse({ tokens }).success).toBe(true);
    expect(NftMetadataBatchBody.safeParse({ tokens: [] }).success).toBe(false);
    expect(NftMetadataBatchBody.safeParse({ tokens: Array(101).fill(tokens[0]) }).success).toBe(false);
    expect(NftMetadataBatchBody.safeParse({ tokens: [{ contractAddress: A, tokenId: 1.5 }] }).success).toBe(false);
    expect(NftMetadataBatchBody.safeParse({ tokens: [{ contractAddress: 'relics', tokenId: '1' }] }).success).toBe(false);
  });
});
