import type { Migration, MigrationProvider } from 'kysely/migration';
import { up as createAppsAndUsage } from './0001-apps-and-usage.ts';
import { up as createTransferIndex } from './0002-transfer-index.ts';
import { up as createWebhooks } from './0003-webhooks.ts';
import { up as createNftMetadata } from './0004-nft-metadata.ts';
import { up as createNftContracts } from './0005-nft-contracts.ts';
import { up as keepHolderFirstBlock } from './0006-holder-first-block.ts';
import { up as indexWebhookQueueHeads } from './0007-webhook-queue-heads.ts';
import { up as createPrices } from './0008-prices.ts';
import { up as createAccounts } from './0009-accounts.ts';
import { up as createNftMarket } from './0010-nft-market.ts';
import { up as addNativeTransfers } from './0011-native-transfers.ts';
import { up as addWebhookTypes } from './0012-webhook-types.ts';
import { up as createNftListsAndRequests } from './0013-nft-lists-and-requests.ts';

// Every migration, by name, in the order they run. Append only: a migration that has run
// anywhere is never edited, and a later change is a new, higher-numbered file.
const migrations: Record<string, Migration> = {
  '0001-apps-and-usage': { up: createAppsAndUsage },
  '0002-transfer-index': { up: createTransferIndex },
  '0003-webhooks': { up: createWebhooks },
  '0004-nft-metadata': { up: createNftMetadata },
  '0005-nft-contracts': { up: createNftContracts },
  '0006-holder-first-block': { up: keepHolderFirstBlock },
  '0007-webhook-queue-heads': { up: indexWebhookQueueHeads },
  '0008-prices': { up: createPrices },
  '0009-accounts': { up: createAccounts },
  '0010-nft-market': { up: createNftMarket },
  '0011-native-transfers': { up: addNativeTransfers },
  '0012-webhook-types': { up: addWebhookTypes },
  '0013-nft-lists-and-requests': { up: createNftListsAndRequests },
};

/** Migrations written in code (kysely's file provider would read a folder at run time). */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
