import { describe, expect, it } from 'vitest';
import { classifySpam, SPAM_RULES, type SpamFacts, type SpamSettings } from '../../../../src/nfts/contracts/spam-rules.ts';

const settings: SpamSettings = { massAirdropMinRecipients: 100, deniedUriHosts: ['spam.example'] };
const plain: SpamFacts = {
  name: 'Crucible Relics',
  symbol: 'RELIC',
  nftTransfers: 12,
  largestFreshMint: { transactionHash: '0x01', recipients: 3 },
  tokenUriHost: 'localhost',
};
const rule = (name: string) => SPAM_RULES.find((candidate) => candidate.name === name)!;

describe('the spam rules', () => {
  it('are named, and a plain collection matches none of them', () => {
    expect(SPAM_RULES.map((candidate) => candidate.name)).toEqual(['MassAirdrop', 'SuspiciousName', 'DeniedTokenUriHost']);
    expect(classifySpam(plain, settings)).toEqual({ isSpam: false, spamClassifications: [] });
  });

  it('MassAirdrop: one transaction minted to at least N addresses new to the contract', () => {
    const massAirdrop = rule('MassAirdrop');
    expect(massAirdrop.matches({ ...plain, largestFreshMint: { transactionHash: '0x01', recipients: 100 } }, settings)).toBe(true);
    expect(massAirdrop.matches({ ...plain, largestFreshMint: { transactionHash: '0x01', recipients: 99 } }, settings)).toBe(false);
    expect(massAirdrop.matches({ ...plain, largestFreshMint: null }, settings)).toBe(false);
    expect(
      massAirdrop.matches({ ...plain, largestFreshMint: { transactionHash: '0x01', recipients: 20 } }, { ...settings, massAirdropMinRecipients: 20 }),
    ).toBe(true);
  });

  it('SuspiciousName: URLs, bait words and look-alike tickers in the name or symbol', () => {
    const suspicious = rule('SuspiciousName');
    const matches = (name: string | null, symbol: string | null) => suspicious.matches({ ...plain, name, symbol }, settings);
    for (const name of [
      'Visit https://free.example to claim',
      'www.rewards-drop.io',
      'apecoin-claim.xyz',
      'Claim your reward',
      'Free Mint Pass',
      '$5000 voucher',
    ]) {
      expect({ name, matches: matches(name, 'PASS') }).toEqual({ name, matches: true });
    }
    // A fungible token's ticker, one with a $ in front, or Latin mixed with a Cyrillic look-alike (USDТ).
    for (const symbol of ['USDC', 'weth', '$ETH', 'USDТ', 'ΕTH']) expect({ symbol, matches: matches('Pass', symbol) }).toEqual({ symbol, matches: true });
    for (const [name, symbol] of [
      ['Crucible Relics', 'RELIC'],
      ['Drop Pass', 'DROP'],
      ['Crucible Punks', 'CPUNK'],
      ['Сталь', 'СТАЛЬ'],
      [null, null],
    ] as const) {
      expect({ name, symbol, matches: matches(name, symbol) }).toEqual({ name, symbol, matches: false });
    }
  });

  it('DeniedTokenUriHost: a held token’s URI on a denied host or one of its subdomains', () => {
    const denied = rule('DeniedTokenUriHost');
    expect(denied.matches({ ...plain, tokenUriHost: 'spam.example' }, settings)).toBe(true);
    expect(denied.matches({ ...plain, tokenUriHost: 'cdn.spam.example' }, settings)).toBe(true);
    expect(denied.matches({ ...plain, tokenUriHost: 'notspam.example' }, settings)).toBe(false);
    expect(denied.matches({ ...plain, tokenUriHost: null }, settings)).toBe(false);
  });

  it('lists every rule that matched; nothing is known before the index holds an NFT transfer', () => {
    const both = { ...plain, name: 'claim.example', largestFreshMint: { transactionHash: '0x01' as const, recipients: 500 } };
    expect(classifySpam(both, settings)).toEqual({ isSpam: true, spamClassifications: ['MassAirdrop', 'SuspiciousName'] });
    expect(classifySpam({ ...both, nftTransfers: 0 }, settings)).toEqual({ isSpam: null, spamClassifications: [] });
  });
});
