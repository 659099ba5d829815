import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildEnvironment, type BuildEnvironment } from './build-environment.ts';
import { readDashboardConfig, type DashboardConfig } from './dashboard.ts';
import { readDatabaseConfig, type DatabaseConfig } from './database.ts';
import { envValue, type Env } from './env.ts';
import { readFaucetConfig, type FaucetConfig } from './faucet.ts';
import { readIndexerConfig, type IndexerConfig } from './indexer.ts';
import { readNftContractsConfig, type NftContractsConfig } from './nft-contracts.ts';
import { readNftMarketConfig, type NftMarketConfig } from './nft-market.ts';
import { readNftMetadataConfig, type NftMetadataConfig } from './nft-metadata.ts';
import { readNftsConfig, type NftsConfig } from './nfts.ts';
import { readNodeConfig, type NodeConfig } from './node.ts';
import { readPlatformConfig, type PlatformConfig } from './platform.ts';
import { readPricesConfig, type PricesConfig } from './prices.ts';
import { readDevApiConfig, readServerConfig, type DevApiConfig, type ServerConfig } from './server.ts';
import { readWebhooksConfig, type WebhooksConfig } from './webhooks.ts';

// The one module that reads the process environment: once, with `.env` loaded under it, and
// handed to each part as its typed configuration. A bad value throws naming the variable. The
// readers it calls are pure functions of an env record, which is how tests configure a part.

let environment: Env | undefined;

/**
 * process.env with `.env` of the working directory (see .env.example) loaded under it: a
 * variable set in the real environment, even to an empty value, wins, as process.loadEnvFile
 * never overwrites one. Read once, so every part sees the same values.
 */
function processEnvironment(): Env {
  if (!environment) {
    const file = resolve('.env');
    if (existsSync(file)) process.loadEnvFile(file);
    environment = { ...process.env };
  }
  return environment;
}

/** The platform's mode, local or production (src/config/platform.ts), which every part reads. */
export function platformConfig(): PlatformConfig {
  return readPlatformConfig(processEnvironment());
}

/** Token prices (src/prices/): the sampler and `{prices_url}`. */
export function pricesConfig(mode: { local: boolean }): PricesConfig {
  return readPricesConfig(processEnvironment(), mode);
}

/** The production server (src/server/). */
export function serverConfig(): ServerConfig {
  return readServerConfig(processEnvironment());
}

/** The API `astro dev` serves (integrations/api-dev.ts). */
export function devApiConfig(): DevApiConfig {
  return readDevApiConfig(processEnvironment());
}

/** The faucet (src/runtime/faucet.ts builds it); the networks' ids name its per-network variables. */
export function faucetConfig(networks: ReadonlyArray<{ id: string }>): FaucetConfig {
  return readFaucetConfig(processEnvironment(), networks);
}

/** The dashboard's accounts (src/accounts/, src/dashboard/): sign-up and sign-in limits, apps per account, password hashing at once. */
export function dashboardConfig(): DashboardConfig {
  return readDashboardConfig(processEnvironment());
}

/** The platform's database (src/db/) and the secret sealing its app keys (src/apps/). */
export function databaseConfig(): DatabaseConfig {
  return readDatabaseConfig(processEnvironment());
}

/** The node gateway (src/node/); the networks' ids name its per-network variables. */
export function nodeConfig(networks: ReadonlyArray<{ id: string }>): NodeConfig {
  return readNodeConfig(processEnvironment(), networks);
}

/** The transfer indexer (src/indexer/); the networks' ids name its per-network variables. */
export function indexerConfig(networks: ReadonlyArray<{ id: string }>): IndexerConfig {
  return readIndexerConfig(processEnvironment(), networks);
}

/** NFT webhooks' delivery (src/webhooks/); `local`: the platform runs in local mode (CRUCIBLE_MODE=local). */
export function webhooksConfig(mode: { local: boolean }): WebhooksConfig {
  return readWebhooksConfig(processEnvironment(), mode);
}

/** How NFT metadata and media are fetched (src/nfts/); `local`: the platform runs in local mode (CRUCIBLE_MODE=local). */
export function nftsConfig(mode: { local: boolean }): NftsConfig {
  return readNftsConfig(processEnvironment(), mode);
}

/** The NFT metadata worker (src/nfts/metadata/). */
export function nftMetadataConfig(): NftMetadataConfig {
  return readNftMetadataConfig(processEnvironment());
}

export function nftContractsConfig(): NftContractsConfig {
  return readNftContractsConfig(processEnvironment());
}

/** The marketplaces each network's getFloorPrice and getNFTSales read (src/nfts/market/). */
export function nftMarketConfig(networks: ReadonlyArray<{ id: string }>): NftMarketConfig {
  return readNftMarketConfig(processEnvironment(), networks);
}

/** The build's inputs from the environment: the site origin and the faucet pages' widget. */
export function buildConfig(): BuildEnvironment {
  return buildEnvironment(processEnvironment());
}

/**
 * The folder of committed content, relative to the project root. `CRUCIBLE_CONTENT_DIR` points
 * a build at another tree (the test fixture site, the benchmark corpus).
 */
export function contentDir(): string {
  return envValue(processEnvironment(), 'CRUCIBLE_CONTENT_DIR') ?? 'content';
}

/** Astro's cache; `CRUCIBLE_CACHE_DIR` gives a build its own (the tests' and benchmarks' builds). */
export function astroCacheDir(): string {
  return envValue(processEnvironment(), 'CRUCIBLE_CACHE_DIR') ?? './node_modules/.astro';
}
