import { describe, expect, it } from 'vitest';
import { readNftContractsConfig } from '../../../src/config/nft-contracts.ts';

describe('readNftContractsConfig', () => {
  it('defaults: facts read again after an hour, a mass airdrop from 100 newcomers, no denied hosts', () => {
    expect(readNftContractsConfig({})).toEqual({ factsTtlMs: 3_600_000, massAirdropMinRecipients: 100, deniedUriHosts: [] });
  });

  it('reads each variable; denied hosts lowercase, blanks dropped', () => {
    expect(
      readNftContractsConfig({
        NFT_CONTRACT_FACTS_TTL_MS: '60000',
        NFT_SPAM_AIRDROP_MIN_RECIPIENTS: '25',
        NFT_SPAM_DENIED_URI_HOSTS: ' Spam.Example, ,claims.example ',
      }),
    ).toEqual({ factsTtlMs: 60_000, massAirdropMinRecipients: 25, deniedUriHosts: ['spam.example', 'claims.example'] });
  });

  it.each([
    [{ NFT_CONTRACT_FACTS_TTL_MS: '0' }, 'NFT_CONTRACT_FACTS_TTL_MS must be a whole number from 1'],
    [{ NFT_SPAM_AIRDROP_MIN_RECIPIENTS: 'many' }, 'NFT_SPAM_AIRDROP_MIN_RECIPIENTS must be a whole number from 1'],
    [{ NFT_SPAM_DENIED_URI_HOSTS: 'https://spam.example/' }, 'NFT_SPAM_DENIED_URI_HOSTS must be host names separated by commas'],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => readNftContractsConfig(env)).toThrow(`Invalid NFT configuration: ${message}`);
  });
});
