import { describe, expect, it } from 'vitest';
import { parseAssetTransfersParams } from '../../../../src/node/rpc/methods/transfer-params.ts';
import { decodeTransfersPageKey, encodeTransfersPageKey } from '../../../../src/node/rpc/methods/transfers-page-key.ts';
import { findRpcMethod } from '../../../../src/node/rpc/registry.ts';
import { validateCall } from '../../../../src/node/rpc/validate.ts';

// crucible_getAssetTransfers' params (docs/token-data.md#crucible_getassettransfers): the registry's validation and the core's parse
// say the same, every refusal naming the field.

const address = `0x${'Ab'.repeat(20)}`;
const http = { docsUrl: 'https://crucible.test/rpc/', transport: 'http' as const };
const refusal = (request: unknown) => {
  const checked = validateCall({ method: 'alchemy_getAssetTransfers', params: [request] }, http);
  return checked.ok ? null : checked.failure.error.message;
};

describe('crucible_getAssetTransfers params', () => {
  it('takes what the SDK sends, with the defaults the incumbent documents', () => {
    const sent = {
      fromBlock: '0x0',
      toBlock: 'latest',
      fromAddress: address,
      category: ['erc20', 'external'],
      maxCount: '0x32',
      withMetadata: true,
      excludeZeroValue: false,
      order: 'desc',
      contractAddresses: [address],
    };
    expect(validateCall({ method: 'alchemy_getAssetTransfers', params: [sent] }, http)).toMatchObject({
      ok: true,
      method: findRpcMethod('crucible_getAssetTransfers'),
    });
    expect(parseAssetTransfersParams([sent])).toEqual({
      fromBlock: 0,
      toBlock: 'latest',
      fromAddress: address.toLowerCase(),
      toAddress: null,
      contractAddresses: [address.toLowerCase()],
      categories: new Set(['erc20', 'external']),
      order: 'desc',
      withMetadata: true,
      excludeZeroValue: false,
      maxCount: 50,
      after: null,
    });
    expect(parseAssetTransfersParams([{ category: ['erc721'] }])).toMatchObject({
      fromBlock: 0,
      toBlock: 'latest',
      order: 'asc',
      withMetadata: false,
      excludeZeroValue: true,
      maxCount: 1000,
    });
    expect(parseAssetTransfersParams([{ category: ['internal'], fromBlock: 'earliest', toBlock: '0x10', maxCount: 5 }])).toMatchObject({
      fromBlock: 0,
      toBlock: 16,
      maxCount: 5,
    });
  });

  it.each([
    [{ fromAddress: '0x123', category: ['erc20'] }, '[0] request.fromAddress must be a 20-byte address: "0x" and 40 hex digits'],
    [{ category: ['erc777'] }, '[0] request.category[0] must be a list of 1 to 6 of "external", "internal", "erc20", "erc721", "erc1155", "specialnft"'],
    [{ category: [] }, '[0] request.category must be a list of 1 to 6 of "external", "internal", "erc20", "erc721", "erc1155", "specialnft"'],
    [{ toAddress: address }, '[0] request.category must be a list of 1 to 6 of "external", "internal", "erc20", "erc721", "erc1155", "specialnft"'],
    [{ category: ['erc20'], maxCount: '0x3e9' }, '[0] request.maxCount must be a hex quantity from 0x1 to 0x3e8 (1,000)'],
    [{ category: ['erc20'], maxCount: '0x0' }, '[0] request.maxCount must be a hex quantity from 0x1 to 0x3e8 (1,000)'],
    [{ category: ['erc20'], fromBlock: '0x10', toBlock: '0x5' }, '[0] request fromBlock (16) must not be after toBlock (5)'],
    [
      { category: ['erc20'], fromBlock: 'yesterday' },
      '[0] request.fromBlock must be "latest", "earliest", "pending", "safe", "finalized" or a hex block number',
    ],
    [{ category: ['erc20'], order: 'newest' }, '[0] request.order must be "asc" or "desc"'],
    [{ category: ['erc20'], pageKey: 'not-a-key' }, '[0] request.pageKey must be the pageKey of an earlier answer of this method'],
    [{ category: ['erc20'], toAdress: address }, '[0] request has no field toAdress'],
    [
      'erc20',
      '[0] request must be an object {"category": [...], "fromBlock"?, "toBlock"?, "fromAddress"?, "toAddress"?, "contractAddresses"?, "order"?, "withMetadata"?, "excludeZeroValue"?, "maxCount"?, "pageKey"?}',
    ],
  ])('refuses %j: %s', (request, message) => {
    expect(refusal(request)).toBe(`invalid params: ${message}`);
    expect(() => parseAssetTransfersParams([request])).toThrow(message);
  });
});

describe('the pageKey of crucible_getAssetTransfers', () => {
  it('names a position and an order, and only its own spelling', () => {
    const key = { order: 'desc' as const, block: 123_456, transactionIndex: 7, part: 1 as const, index: 3 };
    const encoded = encodeTransfersPageKey(key);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeTransfersPageKey(encoded)).toEqual(key);
    expect(decodeTransfersPageKey(`${encoded}=`)).toBeNull();
    expect(decodeTransfersPageKey(Buffer.from('d.1.2.3.4').toString('base64url'))).toBeNull();
    expect(decodeTransfersPageKey(Buffer.from('a.01.2.0.4').toString('base64url'))).toBeNull();
  });
});
