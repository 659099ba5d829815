import { dirname, join } from 'node:path';
import { parseEther, type Hex } from 'viem';
import { z } from 'zod';
import { DEV_FAUCET_PRIVATE_KEY, isWellKnownDevKey } from '../chain/dev-accounts.ts';
import { FaucetConfigError } from './config-error.ts';
import { readDatabasePath } from './database.ts';
import { envValue, type Env } from './env.ts';
import { decimalNumber, wholeNumber as wholeNumberFrom } from './numbers.ts';
import { readPlatformConfig, type PlatformMode } from './platform.ts';

// The faucet's configuration, validated with zod and refused with a message that names the
// variable. Every variable is listed, commented, in .env.example. The server takes it through
// readFaucetConfig, the build (the pages' Turnstile widget) through pageTurnstile.

interface NetworkChainConfig {
  /** Configured JSON-RPC endpoint. null: a local anvil in local mode, no chain in production. */
  rpcUrl: string | null;
  /** Faucet signing key. null only where no chain will be used (production without an RPC URL). */
  privateKey: Hex | null;
}

type CaptchaConfig =
  | { kind: 'development' }
  | {
      kind: 'turnstile';
      secretKey: string;
      /** For the faucet pages' widget; null in local mode when only the secret is set. */
      siteKey: string | null;
      siteverifyUrl: string;
      expectedHostname: string | null;
      expectedAction: string | null;
    };

interface AntiSybilConfig {
  mainnetRpcUrl: string;
  minBalanceWei: bigint;
  minTxCount: number;
}

export interface FaucetConfig {
  /** The platform's mode (CRUCIBLE_MODE, src/config/platform.ts), which decides what the faucet accepts. */
  mode: PlatformMode;
  /** Keyed by faucet id; every network has an entry. */
  chains: Record<string, NetworkChainConfig>;
  /** null: no anti-sybil check (local mode without MAINNET_RPC_URL, or thresholds set to 0). */
  antiSybil: AntiSybilConfig | null;
  captcha: CaptchaConfig;
  /** null: no per-IP limit. Counted per client bucket (an IPv4 address, an IPv6 prefix) per network. */
  perIpLimit: { max: number; windowMs: number } | null;
  /** IPv6 clients are counted per prefix of this many bits. */
  ipv6PrefixLength: number;
  /** Status polls per client bucket that reach the node; null: not limited. */
  statusPollLimit: { perMinute: number; burst: number } | null;
  /** Key of the salted hash under which IPs are stored (never the raw IP). */
  ipHashSalt: string;
  databasePath: string;
  /** Set: limits, CAPTCHA tokens and the sender lock live in Redis (shared by processes). */
  redisUrl: string | null;
  /** Seconds between blocks on local anvil devnets. */
  anvilBlockTimeSeconds: number;
  /**
   * Reconciling drips a crash or an unknown broadcast left unsettled: how often it runs, and how
   * old a reservation must be before it is settled from the chain (far longer than a send takes).
   */
  reconcile: { intervalMs: number; settleAfterMs: number };
  /**
   * Where local devnets keep their chains across restarts: `devnets/` beside the SQLite file
   * (DATABASE_PATH), so one setting moves all local state and a test's temporary database gets
   * temporary chains too.
   */
  devnetStateDir: string;
}

export const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
/** Cloudflare's documented testing keys: they accept the dummy token, so production refuses them. */
const TURNSTILE_TEST_SECRET_KEYS = ['1x0000000000000000000000000000000AA', '2x0000000000000000000000000000000AA', '3x0000000000000000000000000000000AA'];
const TURNSTILE_TEST_SITE_KEYS = [
  '1x00000000000000000000AA',
  '2x00000000000000000000AB',
  '1x00000000000000000000BB',
  '2x00000000000000000000BB',
  '3x00000000000000000000FF',
];

/** Production defaults of the anti-sybil check. */
const DEFAULT_MIN_MAINNET_BALANCE_ETH = '0.001';
const DEFAULT_MIN_MAINNET_TX_COUNT = 1;
const LOCAL_IP_HASH_SALT = 'crucible-local-development-ip-salt';

/** `ethereum-sepolia` -> `ETHEREUM_SEPOLIA`, the suffix of its per-network variables. */
export function envSuffixOf(faucetId: string): string {
  return faucetId.toUpperCase().replace(/-/g, '_');
}

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
/** Production sends secrets only over TLS, or to this machine (where no network carries them). */
const httpsUrl = httpUrl.refine((url) => url.startsWith('https:') || isLocalUrl(url), 'must be an https URL in production mode');
const redisUrl = z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' });
const privateKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hexadecimal digits')
  .transform((k) => k as Hex);
const wholeNumber = wholeNumberFrom({ message: 'must be a whole number' });
const positiveNumber = decimalNumber({ min: 0, exclusive: true, message: 'must be a positive number', belowMessage: 'must be greater than 0' });
const decimalEther = z.string().regex(/^\d+(\.\d{1,18})?$/, 'must be a decimal amount of ETH such as 0.001');

/** The faucet networks (content/networks/): their ids name the per-network variables. */
type Networks = ReadonlyArray<{ id: string }>;

/** Validates the faucet's environment. Throws a ConfigError (FaucetConfigError for the faucet's own variables) naming the first bad variable. */
export function readFaucetConfig(env: Env, networks: Networks): FaucetConfig {
  const { raw, read } = envReader(env);
  const { mode } = readPlatformConfig(env);
  const production = mode === 'production';
  const databasePath = readDatabasePath(env);

  rejectUnknownNetworkVariables(env, networks);

  const sharedKey = read('FAUCET_PRIVATE_KEY', privateKey);
  const chains: Record<string, NetworkChainConfig> = {};
  for (const network of networks) {
    const suffix = envSuffixOf(network.id);
    const rpcUrl = read(`RPC_URL_${suffix}`, httpUrl) ?? null;
    const keyVariable = raw(`FAUCET_PRIVATE_KEY_${suffix}`) ? `FAUCET_PRIVATE_KEY_${suffix}` : 'FAUCET_PRIVATE_KEY';
    const configuredKey = read(`FAUCET_PRIVATE_KEY_${suffix}`, privateKey) ?? sharedKey ?? null;
    if (production && rpcUrl !== null) {
      if (!configuredKey) throw new FaucetConfigError(keyVariable, `is required in production mode: RPC_URL_${suffix} is set`);
      if (!isLocalUrl(rpcUrl) && isWellKnownDevKey(configuredKey)) {
        throw new FaucetConfigError(keyVariable, `is a well-known anvil development key; production mode refuses it for the non-local RPC_URL_${suffix}`);
      }
    }
    if (!production) refuseProductionOnlyChain(`RPC_URL_${suffix}`, rpcUrl, keyVariable, configuredKey);
    // Local mode signs with anvil's funded dev account unless a key is configured.
    chains[network.id] = { rpcUrl, privateKey: configuredKey ?? (production ? null : DEV_FAUCET_PRIVATE_KEY) };
  }

  const captcha = readCaptcha(read, raw, production);
  const antiSybil = readAntiSybil(read, raw, production);

  const perIpMax = read('PER_IP_MAX_DRIPS', wholeNumber) ?? 20;
  const perIpWindowHours = read('PER_IP_WINDOW_HOURS', positiveNumber) ?? 24;
  const ipv6PrefixLength = read('PER_IP_IPV6_PREFIX', wholeNumber.pipe(z.number().min(32, 'must be from 32 to 128').max(128, 'must be from 32 to 128'))) ?? 64;
  const statusPolls = read('STATUS_POLLS_PER_MINUTE', wholeNumber) ?? 120;

  const ipHashSalt = read('IP_HASH_SALT', z.string().min(16, 'must be at least 16 characters'));
  if (production && !ipHashSalt) throw new FaucetConfigError('IP_HASH_SALT', 'is required in production mode (a secret of at least 16 characters)');

  return {
    mode,
    chains,
    antiSybil,
    captcha,
    perIpLimit: perIpMax === 0 ? null : { max: perIpMax, windowMs: Math.round(perIpWindowHours * 3_600_000) },
    ipv6PrefixLength,
    // A burst of a quarter minute's polls: a page that reloads, or a few people behind one address.
    statusPollLimit: statusPolls === 0 ? null : { perMinute: statusPolls, burst: Math.max(1, Math.ceil(statusPolls / 4)) },
    ipHashSalt: ipHashSalt ?? LOCAL_IP_HASH_SALT,
    databasePath,
    devnetStateDir: join(dirname(databasePath), 'devnets'),
    redisUrl: read('REDIS_URL', redisUrl) ?? null,
    anvilBlockTimeSeconds: read('ANVIL_BLOCK_TIME', positiveNumber) ?? 2,
    reconcile: {
      intervalMs: Math.round((read('FAUCET_RECONCILE_INTERVAL_SECONDS', positiveNumber) ?? 60) * 1000),
      settleAfterMs: Math.round((read('FAUCET_SETTLE_AFTER_SECONDS', positiveNumber) ?? 120) * 1000),
    },
  };
}

/** What the faucet pages' Turnstile widget is rendered with, read when the site is built. */
export interface PageTurnstile {
  /** null: the pages show the development check. */
  siteKey: string | null;
  /** The widget's `data-action`; the server refuses tokens of any other action. null: none. */
  action: string | null;
}

/**
 * The faucet pages' widget settings (src/site/faucet-pages.ts), from the same variables and
 * rules as the server's verifier, so the page and the server cannot disagree on the action.
 * Production mode refuses to build without a real site key and an action, as the server
 * refuses to start without them.
 */
export function pageTurnstile(env: Env): PageTurnstile {
  const { read } = envReader(env);
  const production = readPlatformConfig(env).mode === 'production';
  return { siteKey: readSiteKey(read, production), action: readAction(read, production) };
}

type Read = <T>(name: string, schema: z.ZodType<T, string>) => T | undefined;
type Raw = (name: string) => string | undefined;

function envReader(env: Env): { raw: Raw; read: Read } {
  const raw = (name: string) => envValue(env, name);
  const read = <T>(name: string, schema: z.ZodType<T, string>): T | undefined => {
    const value = raw(name);
    if (value === undefined) return undefined;
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new FaucetConfigError(name, parsed.error.issues[0]?.message ?? 'is invalid');
    return parsed.data;
  };
  return { raw, read };
}

function readSiteKey(read: Read, production: boolean): string | null {
  const siteKey = read('TURNSTILE_SITE_KEY', z.string().min(1)) ?? null;
  if (production) {
    if (!siteKey) throw new FaucetConfigError('TURNSTILE_SITE_KEY', 'is required in production mode (the faucet pages render the widget with it)');
    if (TURNSTILE_TEST_SITE_KEYS.includes(siteKey))
      throw new FaucetConfigError('TURNSTILE_SITE_KEY', "is one of Cloudflare's testing keys; production mode refuses it");
  }
  return siteKey;
}

function readAction(read: Read, production: boolean): string | null {
  const action = read('TURNSTILE_ACTION', z.string().regex(/^[\w-]{1,32}$/, 'must be 1–32 letters, digits, - or _')) ?? null;
  if (production && !action)
    throw new FaucetConfigError(
      'TURNSTILE_ACTION',
      "is required in production mode (the faucet pages' widget and the server check the same action, e.g. faucet-send)",
    );
  return action;
}

function readCaptcha(read: Read, raw: Raw, production: boolean): CaptchaConfig {
  const secretKey = read('TURNSTILE_SECRET_KEY', z.string().min(1));
  if (production) {
    if (!secretKey) throw new FaucetConfigError('TURNSTILE_SECRET_KEY', 'is required in production mode: the development CAPTCHA is refused');
    if (TURNSTILE_TEST_SECRET_KEYS.includes(secretKey))
      throw new FaucetConfigError('TURNSTILE_SECRET_KEY', "is one of Cloudflare's testing keys; production mode refuses it");
  }
  const siteKey = readSiteKey(read, production);
  if (!secretKey) {
    if (siteKey) throw new FaucetConfigError('TURNSTILE_SECRET_KEY', 'is required when TURNSTILE_SITE_KEY is set');
    for (const name of ['TURNSTILE_SITEVERIFY_URL', 'TURNSTILE_EXPECTED_HOSTNAME', 'TURNSTILE_ACTION']) {
      if (raw(name)) throw new FaucetConfigError(name, 'is set but TURNSTILE_SECRET_KEY is not (the development CAPTCHA ignores it)');
    }
    return { kind: 'development' };
  }
  // Production accepts a token only from its own page's widget.
  const siteverifyUrl = read('TURNSTILE_SITEVERIFY_URL', production ? httpsUrl : httpUrl) ?? TURNSTILE_SITEVERIFY_URL;
  const expectedHostname = read('TURNSTILE_EXPECTED_HOSTNAME', z.string().min(1)) ?? null;
  if (production && !expectedHostname) {
    throw new FaucetConfigError('TURNSTILE_EXPECTED_HOSTNAME', 'is required in production mode (the hostname of the faucet pages, e.g. faucet.example.com)');
  }
  return { kind: 'turnstile', secretKey, siteKey, siteverifyUrl, expectedHostname, expectedAction: readAction(read, production) };
}

function readAntiSybil(read: Read, raw: Raw, production: boolean): AntiSybilConfig | null {
  const mainnetRpcUrl = read('MAINNET_RPC_URL', httpUrl);
  if (!production && mainnetRpcUrl && !isLocalUrl(mainnetRpcUrl)) {
    throw new FaucetConfigError(
      'MAINNET_RPC_URL',
      'is not on this machine; local mode serves only local chains. Set CRUCIBLE_MODE=production to check mainnet',
    );
  }
  const minBalanceEth = read('ANTI_SYBIL_MIN_BALANCE_ETH', decimalEther);
  const minTxCount = read('ANTI_SYBIL_MIN_TX_COUNT', wholeNumber);
  // Local mode: off unless a mainnet RPC is configured. Production: on unless both thresholds are 0.
  if (!production && !mainnetRpcUrl) {
    for (const name of ['ANTI_SYBIL_MIN_BALANCE_ETH', 'ANTI_SYBIL_MIN_TX_COUNT']) {
      if (raw(name)) throw new FaucetConfigError('MAINNET_RPC_URL', `is required when ${name} is set`);
    }
    return null;
  }
  const minBalanceWei = parseEther(minBalanceEth ?? DEFAULT_MIN_MAINNET_BALANCE_ETH);
  const txCount = minTxCount ?? DEFAULT_MIN_MAINNET_TX_COUNT;
  if (minBalanceWei === 0n && txCount === 0) return null;
  if (!mainnetRpcUrl) {
    throw new FaucetConfigError(
      'MAINNET_RPC_URL',
      'is required in production mode for the anti-sybil check (or set ANTI_SYBIL_MIN_BALANCE_ETH=0 and ANTI_SYBIL_MIN_TX_COUNT=0 to turn it off)',
    );
  }
  return { mainnetRpcUrl, minBalanceWei, minTxCount: txCount };
}

/**
 * Local mode guards nothing real: its CAPTCHA accepts a public dummy token and its IP salt is
 * public, so it runs only against chains on this machine, signed with anvil's published keys.
 * Anything else is a production wallet, and local mode refuses to open it.
 */
function refuseProductionOnlyChain(urlVariable: string, rpcUrl: string | null, keyVariable: string, key: Hex | null): void {
  if (rpcUrl !== null && !isLocalUrl(rpcUrl)) {
    throw new FaucetConfigError(
      urlVariable,
      `is not on this machine; local mode serves only local chains. Set CRUCIBLE_MODE=production to use a remote RPC endpoint`,
    );
  }
  if (key !== null && !isWellKnownDevKey(key)) {
    throw new FaucetConfigError(keyVariable, `is not one of anvil's development keys; local mode refuses real keys. Set CRUCIBLE_MODE=production to use it`);
  }
}

/** A typo in a per-network variable would silently fall back to a local chain; refuse it. */
function rejectUnknownNetworkVariables(env: Env, networks: Networks): void {
  const suffixes = new Set(networks.map((n) => envSuffixOf(n.id)));
  for (const name of Object.keys(env)) {
    const match = /^(RPC_URL|FAUCET_PRIVATE_KEY)_(.+)$/.exec(name);
    if (match && !suffixes.has(match[2]!)) throw new FaucetConfigError(name, `does not name a faucet network (known: ${[...suffixes].join(', ')})`);
  }
}

/** Loopback hosts: a dev key is harmless against a chain on this machine. */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0.0.0.0' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
