import { describe, expect, it } from 'vitest';
import { issuesFromZod } from '../../../src/site/records.ts';
import { networkData } from '../../../src/site/schema.ts';

const network = {
  name: 'Fixture Testnet',
  chainId: 7357999,
  vm: 'evm',
  nativeCurrency: { symbol: 'ETH', decimals: 18 },
  explorer: 'https://explorer.fixture.example',
  mainnet: null,
  drip: '0.1',
  maxBalance: '1',
  rateWindowHours: 24,
};

describe('networkData', () => {
  it('takes an https explorer, or none', () => {
    expect(networkData.safeParse(network).success).toBe(true);
    expect(networkData.safeParse({ ...network, explorer: null }).success).toBe(true);
  });

  it.each([
    'http://explorer.fixture.example',
    'javascript:alert(1)',
    'JavaScript:alert(1)//https://explorer.fixture.example',
    'ftp://explorer.fixture.example',
  ])('refuses the explorer %s, naming the field', (explorer) => {
    const parsed = networkData.safeParse({ ...network, explorer });
    expect(parsed.success).toBe(false);
    expect(issuesFromZod('content/networks/fixture-testnet.yaml', parsed.error!)).toEqual([
      { file: 'content/networks/fixture-testnet.yaml', field: 'explorer', message: 'must be an https URL' },
    ]);
  });
});

describe('networkData suggestForDeprecated', () => {
  it('is off unless a funded network sets it', () => {
    expect(networkData.parse(network).suggestForDeprecated).toBe(false);
    expect(networkData.parse({ ...network, suggestForDeprecated: true }).suggestForDeprecated).toBe(true);
  });

  it('refuses a deprecated network as the suggestion, naming the field', () => {
    const parsed = networkData.safeParse({ ...network, deprecated: true, suggestForDeprecated: true });
    expect(parsed.success).toBe(false);
    expect(issuesFromZod('content/networks/fixture-testnet.yaml', parsed.error!)).toEqual([
      {
        file: 'content/networks/fixture-testnet.yaml',
        field: 'suggestForDeprecated',
        message: 'a deprecated network cannot be suggested instead of a deprecated one',
      },
    ]);
  });
});
