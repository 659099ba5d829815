import { resolve } from 'node:path';
import { parseEther } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_FAUCET_PRIVATE_KEY } from '../../../src/chain/dev-accounts.ts';
import { loadFaucetNetworks, type FaucetNetwork } from '../../../src/chain/networks.ts';
import { ConfigError } from '../../../src/config/config-error.ts';
import { envSuffixOf, isLocalUrl, pageTurnstile, readFaucetConfig, TURNSTILE_SITEVERIFY_URL } from '../../../src/config/faucet.ts';

let networks: FaucetNetwork[];
beforeAll(async () => {
  networks = await loadFaucetNetworks();
});

/** A private key no one publishes. */
const OWN_KEY = `0x${'ab'.repeat(32)}`;
/** Anvil's dev account 3: well known although it is not the default faucet key. */
const DEV_ACCOUNT_3_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';

const production = {
  CRUCIBLE_MODE: 'production',
  TURNSTILE_SECRET_KEY: '0x4AAAAAAAreal-secret',
  TURNSTILE_SITE_KEY: '0x4AAAAAAAreal-site',
  TURNSTILE_EXPECTED_HOSTNAME: 'faucet.example.com',
  TURNSTILE_ACTION: 'faucet-send',
  IP_HASH_SALT: 'a-secret-salt-of-some-length',
  MAINNET_RPC_URL: 'https://mainnet.example.com',
};

function refusal(env: Record<string, string>): ConfigError {
  try {
    readFaucetConfig(env, networks);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('configuration was accepted');
}

describe('readFaucetConfig in local mode', () => {
  it('runs everything embedded with no variables at all', () => {
    const config = readFaucetConfig({}, networks);
    expect(config.mode).toBe('local');
    expect(config.captcha).toEqual({ kind: 'development' });
    expect(config.antiSybil).toBeNull();
    expect(config.redisUrl).toBeNull();
    expect(config.databasePath).toBe(resolve('.data/crucible.sqlite'));
    expect(config.anvilBlockTimeSeconds).toBe(2);
    expect(config.perIpLimit).toEqual({ max: 20, windowMs: 24 * 3_600_000 });
    expect(config.reconcile).toEqual({ intervalMs: 60_000, settleAfterMs: 120_000 });
    for (const network of networks) expect(config.chains[network.id]).toEqual({ rpcUrl: null, privateKey: DEV_FAUCET_PRIVATE_KEY });
  });

  it('takes local RPC URLs and dev keys per network, the shared key elsewhere', () => {
    const config = readFaucetConfig(
      { FAUCET_PRIVATE_KEY: DEV_ACCOUNT_3_KEY, FAUCET_PRIVATE_KEY_BASE_SEPOLIA: DEV_FAUCET_PRIVATE_KEY, RPC_URL_ETHEREUM_SEPOLIA: 'http://127.0.0.1:8545' },
      networks,
    );
    expect(config.chains['ethereum-sepolia']).toEqual({ rpcUrl: 'http://127.0.0.1:8545', privateKey: DEV_ACCOUNT_3_KEY });
    expect(config.chains['base-sepolia']).toEqual({ rpcUrl: null, privateKey: DEV_FAUCET_PRIVATE_KEY });
  });

  it('refuses a remote RPC URL, naming it and pointing at production mode', () => {
    for (const variable of ['RPC_URL_ETHEREUM_SEPOLIA', 'MAINNET_RPC_URL']) {
      const error = refusal({ [variable]: 'https://rpc.example.com/v2/key' });
      expect(error.variable).toBe(variable);
      expect(error.message).toMatch(/CRUCIBLE_MODE=production/);
    }
    // A remote endpoint with a dev key is refused for the endpoint, whatever the key.
    expect(refusal({ RPC_URL_BASE_SEPOLIA: 'http://10.0.0.2:8545', FAUCET_PRIVATE_KEY: DEV_FAUCET_PRIVATE_KEY }).variable).toBe('RPC_URL_BASE_SEPOLIA');
  });

  it("refuses a key that is not one of anvil's, even for a local devnet, naming the variable", () => {
    const shared = refusal({ FAUCET_PRIVATE_KEY: OWN_KEY });
    expect(shared.variable).toBe('FAUCET_PRIVATE_KEY');
    expect(shared.message).toMatch(/CRUCIBLE_MODE=production/);
    expect(refusal({ FAUCET_PRIVATE_KEY_BASE_SEPOLIA: OWN_KEY, RPC_URL_BASE_SEPOLIA: 'http://127.0.0.1:8545' }).variable).toBe(
      'FAUCET_PRIVATE_KEY_BASE_SEPOLIA',
    );
  });

  it('turns on anti-sybil only with a mainnet RPC, with the production defaults', () => {
    expect(readFaucetConfig({ MAINNET_RPC_URL: 'http://127.0.0.1:8545' }, networks).antiSybil).toEqual({
      mainnetRpcUrl: 'http://127.0.0.1:8545',
      minBalanceWei: parseEther('0.001'),
      minTxCount: 1,
    });
    expect(
      readFaucetConfig({ MAINNET_RPC_URL: 'http://127.0.0.1:8545', ANTI_SYBIL_MIN_BALANCE_ETH: '0.5', ANTI_SYBIL_MIN_TX_COUNT: '3' }, networks).antiSybil,
    ).toMatchObject({ minBalanceWei: parseEther('0.5'), minTxCount: 3 });
    expect(refusal({ ANTI_SYBIL_MIN_TX_COUNT: '3' }).variable).toBe('MAINNET_RPC_URL');
  });

  it('uses Turnstile when a secret is set, with Cloudflare siteverify by default', () => {
    const config = readFaucetConfig({ TURNSTILE_SECRET_KEY: 's', TURNSTILE_ACTION: 'faucet', TURNSTILE_EXPECTED_HOSTNAME: 'example.com' }, networks);
    expect(config.captcha).toEqual({
      kind: 'turnstile',
      secretKey: 's',
      siteKey: null,
      siteverifyUrl: TURNSTILE_SITEVERIFY_URL,
      expectedHostname: 'example.com',
      expectedAction: 'faucet',
    });
    expect(refusal({ TURNSTILE_SITE_KEY: 'x' }).variable).toBe('TURNSTILE_SECRET_KEY');
    expect(refusal({ TURNSTILE_ACTION: 'faucet' }).variable).toBe('TURNSTILE_ACTION');
  });

  it('treats an empty value as unset and PER_IP_MAX_DRIPS=0 as no per-IP limit', () => {
    const config = readFaucetConfig({ REDIS_URL: '', PER_IP_MAX_DRIPS: '0', ANVIL_BLOCK_TIME: '0.5' }, networks);
    expect(config.redisUrl).toBeNull();
    expect(config.perIpLimit).toBeNull();
    expect(config.anvilBlockTimeSeconds).toBe(0.5);
  });

  it('reads how often and after how long unsettled drips are reconciled, in seconds', () => {
    const config = readFaucetConfig({ FAUCET_RECONCILE_INTERVAL_SECONDS: '1', FAUCET_SETTLE_AFTER_SECONDS: '2.5' }, networks);
    expect(config.reconcile).toEqual({ intervalMs: 1000, settleAfterMs: 2500 });
  });

  it('names the variable of a bad value', () => {
    expect(refusal({ ANVIL_BLOCK_TIME: 'soon' }).variable).toBe('ANVIL_BLOCK_TIME');
    expect(refusal({ ANVIL_BLOCK_TIME: '0' }).variable).toBe('ANVIL_BLOCK_TIME');
    expect(refusal({ CRUCIBLE_MODE: 'prod' }).variable).toBe('CRUCIBLE_MODE');
    expect(refusal({ FAUCET_PRIVATE_KEY: '0x1234' }).variable).toBe('FAUCET_PRIVATE_KEY');
    expect(refusal({ RPC_URL_BASE_SEPOLIA: 'ftp://x' }).variable).toBe('RPC_URL_BASE_SEPOLIA');
    expect(refusal({ REDIS_URL: 'http://127.0.0.1:6379' }).variable).toBe('REDIS_URL');
    expect(refusal({ PER_IP_MAX_DRIPS: '-1' }).variable).toBe('PER_IP_MAX_DRIPS');
    expect(refusal({ FAUCET_RECONCILE_INTERVAL_SECONDS: '0' }).variable).toBe('FAUCET_RECONCILE_INTERVAL_SECONDS');
    expect(refusal({ FAUCET_SETTLE_AFTER_SECONDS: 'soon' }).variable).toBe('FAUCET_SETTLE_AFTER_SECONDS');
    expect(refusal({ ANTI_SYBIL_MIN_BALANCE_ETH: 'lots', MAINNET_RPC_URL: 'http://127.0.0.1:1' }).variable).toBe('ANTI_SYBIL_MIN_BALANCE_ETH');
    expect(refusal({ ANVIL_BLOCK_TIME: 'soon' }).message).toMatch(/^Invalid faucet configuration: ANVIL_BLOCK_TIME /);
  });

  it('refuses a per-network variable that names no network', () => {
    const error = refusal({ RPC_URL_ETHEREUM_SEPOLA: 'https://x.example.com' });
    expect(error.variable).toBe('RPC_URL_ETHEREUM_SEPOLA');
    expect(error.message).toContain('ETHEREUM_SEPOLIA');
  });
});

describe('readFaucetConfig in production mode', () => {
  it('accepts a complete production configuration', () => {
    const config = readFaucetConfig({ ...production, FAUCET_PRIVATE_KEY: OWN_KEY, RPC_URL_ETHEREUM_SEPOLIA: 'https://sepolia.example.com' }, networks);
    expect(config.mode).toBe('production');
    expect(config.chains['ethereum-sepolia']).toEqual({ rpcUrl: 'https://sepolia.example.com', privateKey: OWN_KEY });
    // No devnets in production: a network without an RPC URL has no chain.
    expect(config.chains['base-sepolia']!.rpcUrl).toBeNull();
    expect(config.ipHashSalt).toBe(production.IP_HASH_SALT);
  });

  it('refuses a well-known anvil key against a non-local RPC, naming the key variable', () => {
    const shared = refusal({ ...production, FAUCET_PRIVATE_KEY: DEV_FAUCET_PRIVATE_KEY, RPC_URL_BASE_SEPOLIA: 'https://base.example.com' });
    expect(shared.variable).toBe('FAUCET_PRIVATE_KEY');
    expect(shared.message).toMatch(/well-known anvil development key/);
    const override = refusal({
      ...production,
      FAUCET_PRIVATE_KEY: OWN_KEY,
      FAUCET_PRIVATE_KEY_BASE_SEPOLIA: DEV_ACCOUNT_3_KEY,
      RPC_URL_BASE_SEPOLIA: 'https://base.example.com',
    });
    expect(override.variable).toBe('FAUCET_PRIVATE_KEY_BASE_SEPOLIA');
  });

  it('allows a dev key against a chain on this machine', () => {
    const config = readFaucetConfig({ ...production, FAUCET_PRIVATE_KEY: DEV_FAUCET_PRIVATE_KEY, RPC_URL_BASE_SEPOLIA: 'http://127.0.0.1:8545' }, networks);
    expect(config.chains['base-sepolia']).toEqual({ rpcUrl: 'http://127.0.0.1:8545', privateKey: DEV_FAUCET_PRIVATE_KEY });
  });

  it('needs a key for every network it has an RPC URL for', () => {
    expect(refusal({ ...production, RPC_URL_BASE_SEPOLIA: 'https://base.example.com' }).variable).toBe('FAUCET_PRIVATE_KEY');
  });

  it('refuses the development CAPTCHA and Cloudflare testing keys', () => {
    const { TURNSTILE_SECRET_KEY: _secret, ...withoutSecret } = production;
    expect(refusal(withoutSecret).variable).toBe('TURNSTILE_SECRET_KEY');
    expect(refusal({ ...production, TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA' }).variable).toBe('TURNSTILE_SECRET_KEY');
    expect(refusal({ ...production, TURNSTILE_SITE_KEY: '1x00000000000000000000AA' }).variable).toBe('TURNSTILE_SITE_KEY');
    const { TURNSTILE_SITE_KEY: _site, ...withoutSite } = production;
    expect(refusal(withoutSite).variable).toBe('TURNSTILE_SITE_KEY');
  });

  it('needs the expected hostname and action, and an https siteverify URL', () => {
    const { TURNSTILE_EXPECTED_HOSTNAME: _hostname, ...withoutHostname } = production;
    expect(refusal(withoutHostname).variable).toBe('TURNSTILE_EXPECTED_HOSTNAME');
    const { TURNSTILE_ACTION: _action, ...withoutAction } = production;
    expect(refusal(withoutAction).variable).toBe('TURNSTILE_ACTION');
    const plain = refusal({ ...production, TURNSTILE_SITEVERIFY_URL: 'http://siteverify.example.com/verify' });
    expect(plain.variable).toBe('TURNSTILE_SITEVERIFY_URL');
    expect(plain.message).toMatch(/https/);
    const config = readFaucetConfig({ ...production, TURNSTILE_SITEVERIFY_URL: 'https://siteverify.example.com/verify' }, networks);
    expect(config.captcha).toMatchObject({
      siteverifyUrl: 'https://siteverify.example.com/verify',
      expectedHostname: 'faucet.example.com',
      expectedAction: 'faucet-send',
    });
    // A stand-in on this machine carries the secret over no network.
    expect(readFaucetConfig({ ...production, TURNSTILE_SITEVERIFY_URL: 'http://127.0.0.1:9000/verify' }, networks).captcha).toMatchObject({
      siteverifyUrl: 'http://127.0.0.1:9000/verify',
    });
  });

  it('needs an IP hash salt', () => {
    const { IP_HASH_SALT: _salt, ...withoutSalt } = production;
    expect(refusal(withoutSalt).variable).toBe('IP_HASH_SALT');
    expect(refusal({ ...production, IP_HASH_SALT: 'short' }).variable).toBe('IP_HASH_SALT');
  });

  it('needs a mainnet RPC for the anti-sybil check unless both thresholds are 0', () => {
    const { MAINNET_RPC_URL: _url, ...withoutMainnet } = production;
    expect(refusal(withoutMainnet).variable).toBe('MAINNET_RPC_URL');
    const off = readFaucetConfig({ ...withoutMainnet, ANTI_SYBIL_MIN_BALANCE_ETH: '0', ANTI_SYBIL_MIN_TX_COUNT: '0' }, networks);
    expect(off.antiSybil).toBeNull();
    expect(readFaucetConfig(production, networks).antiSybil).toEqual({
      mainnetRpcUrl: production.MAINNET_RPC_URL,
      minBalanceWei: parseEther('0.001'),
      minTxCount: 1,
    });
  });
});

describe('pageTurnstile (read by the build for the faucet pages)', () => {
  it('is the development check in local mode without a key, and needs no secret', () => {
    expect(pageTurnstile({})).toEqual({ siteKey: null, action: null });
    expect(pageTurnstile({ TURNSTILE_SITE_KEY: '' })).toEqual({ siteKey: null, action: null });
    expect(pageTurnstile({ TURNSTILE_SITE_KEY: '1x00000000000000000000AA' })).toEqual({ siteKey: '1x00000000000000000000AA', action: null });
    expect(pageTurnstile({ CRUCIBLE_MODE: 'production', TURNSTILE_SITE_KEY: '0x4AAAAAAAreal-site', TURNSTILE_ACTION: 'faucet-send' })).toEqual({
      siteKey: '0x4AAAAAAAreal-site',
      action: 'faucet-send',
    });
  });

  it('renders the widget with the very action the server checks', () => {
    const env = { ...production, TURNSTILE_ACTION: 'drip-v2' };
    const config = readFaucetConfig(env, networks);
    expect(config.captcha.kind === 'turnstile' && config.captcha.expectedAction).toBe('drip-v2');
    expect(pageTurnstile(env).action).toBe('drip-v2');
  });

  it('refuses a production build without a real site key or an action, naming the variable', () => {
    const variable = (env: Record<string, string>) => {
      try {
        pageTurnstile(env);
      } catch (error) {
        if (error instanceof ConfigError) return error.variable;
        throw error;
      }
      return null;
    };
    expect(variable({ CRUCIBLE_MODE: 'production', TURNSTILE_ACTION: 'faucet-send' })).toBe('TURNSTILE_SITE_KEY');
    expect(variable({ CRUCIBLE_MODE: 'production', TURNSTILE_ACTION: 'faucet-send', TURNSTILE_SITE_KEY: '1x00000000000000000000AA' })).toBe(
      'TURNSTILE_SITE_KEY',
    );
    expect(variable({ CRUCIBLE_MODE: 'production', TURNSTILE_SITE_KEY: '0x4AAAAAAAreal-site' })).toBe('TURNSTILE_ACTION');
    expect(variable({ CRUCIBLE_MODE: 'staging' })).toBe('CRUCIBLE_MODE');
  });
});

describe('helpers', () => {
  it('spells per-network variable suffixes in upper snake case', () => {
    expect(envSuffixOf('ethereum-sepolia')).toBe('ETHEREUM_SEPOLIA');
    expect(envSuffixOf('crucible-testnet')).toBe('CRUCIBLE_TESTNET');
  });

  it('knows which RPC URLs stay on this machine', () => {
    for (const url of ['http://localhost:8545', 'http://127.0.0.1:1', 'http://127.8.9.10', 'http://[::1]:8545', 'http://node.localhost'])
      expect(isLocalUrl(url)).toBe(true);
    for (const url of ['https://sepolia.example.com', 'http://10.0.0.2:8545', 'http://localhost.example.com']) expect(isLocalUrl(url)).toBe(false);
  });
});
