import { describe, expect, it } from 'vitest';
import { readNftMarketConfig } from '../../../src/config/nft-market.ts';

const networks = [{ id: 'ethereum-sepolia' }, { id: 'base-sepolia' }];
const market = '0x98C2A06B149976EAB1ce5917429c5bfaFf71B5Ec';
const other = '0x1111111111111111111111111111111111111111';

describe('readNftMarketConfig', () => {
  it('defaults to no setting for any network (the runtime then reads the world’s marketplace on devnets, none on real nodes)', () => {
    expect(readNftMarketConfig({}, networks)).toEqual({ marketplaces: {} });
  });

  it('reads name:address pairs per network, and none', () => {
    expect(
      readNftMarketConfig({ NFT_MARKETPLACES_BASE_SEPOLIA: ` crucible:${market}, bazaar-2:${other} `, NFT_MARKETPLACES_ETHEREUM_SEPOLIA: 'none' }, networks),
    ).toEqual({
      marketplaces: {
        'base-sepolia': [
          { name: 'crucible', address: market },
          { name: 'bazaar-2', address: other },
        ],
        'ethereum-sepolia': [],
      },
    });
  });

  it.each([
    [{ NFT_MARKETPLACES_BASE_SEPOLIA: market }, 'NFT_MARKETPLACES_BASE_SEPOLIA must list name:address pairs'],
    [{ NFT_MARKETPLACES_BASE_SEPOLIA: 'crucible:0x1234' }, 'NFT_MARKETPLACES_BASE_SEPOLIA must list name:address pairs'],
    [{ NFT_MARKETPLACES_BASE_SEPOLIA: `9lives:${market}` }, 'NFT_MARKETPLACES_BASE_SEPOLIA must list name:address pairs'],
    [{ NFT_MARKETPLACES_BASE_SEPOLIA: `openSea:${market}` }, 'NFT_MARKETPLACES_BASE_SEPOLIA names a marketplace openSea, a name alchemy-sdk gives'],
    [{ NFT_MARKETPLACES_BASE_SEPOLIA: `Seaport:${market}` }, 'NFT_MARKETPLACES_BASE_SEPOLIA names a marketplace Seaport'],
    [{ NFT_MARKETPLACES_BASE_SEPOLIA: `a:${market},A:${other}` }, 'NFT_MARKETPLACES_BASE_SEPOLIA names a marketplace A twice'],
    [
      { NFT_MARKETPLACES_BASE_SEPOLIA: `a:${market},b:${market.toLowerCase()}` },
      `NFT_MARKETPLACES_BASE_SEPOLIA lists the address ${market.toLowerCase()} twice`,
    ],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => readNftMarketConfig(env, networks)).toThrow(`Invalid NFT marketplace configuration: ${message}`);
  });

  it('refuses a variable that names no network', () => {
    expect(() => readNftMarketConfig({ NFT_MARKETPLACES_MOON: 'none' }, networks)).toThrow(
      /NFT_MARKETPLACES_MOON does not name a network \(known: ETHEREUM_SEPOLIA, BASE_SEPOLIA\)/,
    );
  });
});
