import type { Kysely } from 'kysely';
import pLimit from 'p-limit';
import { getAddress, isAddress, type Address, type Hex } from 'viem';
import type { NftContractsConfig } from '../../config/nft-contracts.ts';
import type { DatabaseSchema } from '../../db/schema.ts';
import { indexedGenesisHash } from '../../transfers/queries.ts';
import type { NftContractFacts, NftContractSource, NftTokenType } from '../nft-sources.ts';
import type { NftChain } from './chain.ts';
import { readContractFacts, type ContractChainFacts } from './contract-reads.ts';
import { findDeployment, type Deployment } from './deployment.ts';
import { readStoredContracts, storeContracts, type StoredContract } from './facts-store.ts';
import { readIndexEvidence, type IndexEvidence } from './index-evidence.ts';
import { collectionOf, marketplaceMetadataOf, type CollectionsRegistry } from './registry.ts';
import { classifySpam } from './spam-rules.ts';

// The NFT endpoints' contract facts (docs/nft-data.md#contract-object `contract`, docs/nft-data.md#contract-facts): name, symbol, total supply
// and ERC-165 type read from the chain in one Multicall3 call per batch at one block, the deployment
// found on chain, the index's evidence for the type and the spam rules, and the collections registry.
// Cached in the database per chain (the genesis hash the transfer index holds for the network): what
// never changes for good, the rest for a TTL.
// When the chain cannot be read, cached facts are served however old; a contract with none is missing.

export interface NftContractSourceOptions {
  db: Kysely<DatabaseSchema>;
  /** A network's chain; null for a network without one (non-EVM). */
  chainOf(network: string): NftChain | null;
  registry: CollectionsRegistry;
  /** The network's node is a local devnet: the registry's world entries apply to it. */
  localWorld(network: string): boolean;
  config: NftContractsConfig;
  /** Contracts per aggregate3 call; default 100 (7 reads each). */
  contractsPerCall?: number;
  now?: () => number;
  log?: (entry: { level: 'error'; message: string; network: string }) => void;
}

/** Deployment searches at once: each is a binary search of eth_getCode, one call after another. */
const DEPLOYMENT_SEARCHES = 4;

export function createNftContractSource(options: NftContractSourceOptions): NftContractSource {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((entry) => console.error(JSON.stringify({ component: 'nft-contracts', ...entry })));
  const contractsPerCall = options.contractsPerCall ?? 100;
  /** Reads under way, by network, genesis hash and lowercase contract. */
  const reading = new Map<string, Promise<StoredContract | null>>();

  /** Reads the chain and the index again for these contracts and stores what was read. */
  async function refresh(network: string, chain: NftChain, genesisHash: Hex, contracts: Address[], known: Map<string, StoredContract>) {
    // The index names the chain; a node already on another (a devnet reset before the indexer saw it) is not read for it.
    const nodeGenesis = await chain.genesisHash();
    if (nodeGenesis.toLowerCase() !== genesisHash.toLowerCase())
      throw new Error(
        `the node's chain (genesis ${nodeGenesis}) is not the one the transfer index holds (genesis ${genesisHash}); read again once the index follows it`,
      );
    const head = await chain.blockNumber();
    const [evidence, codes] = await Promise.all([
      Promise.all(contracts.map((contract) => readIndexEvidence(options.db, network, contract))),
      Promise.all(contracts.map((contract) => chain.getCode(contract, head))),
    ]);
    const deployed = contracts.map((contract, i) => ({ contract, evidence: evidence[i]!, hasCode: codes[i] !== '0x' }));
    const withCode = deployed.filter((item) => item.hasCode);
    const facts = new Map<Address, ContractChainFacts>();
    for (let start = 0; start < withCode.length; start += contractsPerCall) {
      const batch = withCode.slice(start, start + contractsPerCall);
      const read = await readContractFacts(
        chain,
        batch.map((item) => ({ address: item.contract, sample: item.evidence.sample })),
        head,
      );
      for (const [i, item] of batch.entries()) facts.set(item.contract, read[i]!);
    }
    const limit = pLimit(DEPLOYMENT_SEARCHES);
    const stored = await Promise.all(
      deployed.map(({ contract, evidence: { sample: _, ...evidence }, hasCode }) =>
        limit(async (): Promise<StoredContract> => {
          const earlier = known.get(contract.toLowerCase())?.deployment;
          const deployment: Deployment = !hasCode
            ? { blockNumber: null, deployer: null, settled: false }
            : earlier?.settled
              ? earlier
              : await findDeployment(chain, contract, head);
          return { network, genesisHash, contract, chain: facts.get(contract) ?? null, readBlock: Number(head), readAt: now(), deployment, evidence };
        }),
      ),
    );
    await storeContracts(options.db, stored);
    return stored;
  }

  return {
    async storedContractsOf(network) {
      const genesisHash = await indexedGenesisHash(options.db, network);
      if (genesisHash === null) return new Map();
      const stored = await readStoredContracts(options.db, network, genesisHash);
      return new Map([...stored.values()].map((contract) => [contract.contract.toLowerCase(), factsOf(contract, network)]));
    },

    async contractsOf(network, requested) {
      const chain = options.chainOf(network);
      if (!chain) return new Map();
      const contracts = [...new Set(requested.filter((contract) => isAddress(contract, { strict: false })).map((contract) => getAddress(contract)))];
      // The chain the transfer index holds (a database read): answers describe that chain, and a call asks no node unless facts must be read.
      const genesisHash = (await indexedGenesisHash(options.db, network)) ?? (await chain.genesisHash().catch(() => null));
      if (genesisHash === null || contracts.length === 0) return new Map();
      const known = await readStoredContracts(options.db, network, genesisHash, contracts);
      const expired = (stored: StoredContract) => now() - stored.readAt >= options.config.factsTtlMs;
      const stale: Address[] = [];
      for (const contract of contracts) {
        const stored = known.get(contract.toLowerCase());
        if (!stored || expired(stored) || (stored.evidence.nftTransfers === 0 && (await readIndexEvidence(options.db, network, contract)).nftTransfers > 0))
          stale.push(contract);
      }
      // A contract another call is reading already is waited for, not read twice (many clients asking at once).
      const keyOf = (contract: Address) => `${network} ${genesisHash} ${contract.toLowerCase()}`;
      const unread = stale.filter((contract) => !reading.has(keyOf(contract)));
      if (unread.length > 0) {
        const batch = refresh(network, chain, genesisHash, unread, known).catch((error: unknown) => {
          log({ level: 'error', network, message: `contract facts not read: ${error instanceof Error ? error.message : String(error)}` });
          return [];
        });
        for (const contract of unread) {
          const key = keyOf(contract);
          const one = batch.then((stored) => stored.find((item) => item.contract === contract) ?? null);
          reading.set(key, one);
          void one.finally(() => reading.delete(key));
        }
      }
      for (const stored of await Promise.all(stale.map((contract) => reading.get(keyOf(contract))!))) {
        if (stored) known.set(stored.contract.toLowerCase(), stored);
      }
      const answer = new Map<string, NftContractFacts>();
      for (const stored of known.values()) answer.set(stored.contract.toLowerCase(), factsOf(stored, network));
      return answer;
    },
  };

  function factsOf(stored: StoredContract, network: string): NftContractFacts {
    const entry = options.registry.entryOf(network, stored.contract, { localWorld: options.localWorld(network) });
    const spam = classifySpam(
      { ...stored.evidence, name: stored.chain?.name ?? null, symbol: stored.chain?.symbol ?? null, tokenUriHost: stored.chain?.tokenUriHost ?? null },
      options.config,
    );
    return {
      address: stored.contract,
      name: stored.chain?.name ?? null,
      symbol: stored.chain?.symbol ?? null,
      totalSupply: stored.chain?.totalSupply ?? null,
      tokenType: tokenTypeOf(stored.chain, stored.evidence),
      contractDeployer: stored.deployment.deployer,
      deployedBlockNumber: stored.deployment.blockNumber,
      marketplaceMetadata: marketplaceMetadataOf(entry),
      ...spam,
      collection: collectionOf(entry),
    };
  }
}

/** ERC-165's answer; when it says nothing, the NFT events the index saw (legacy NFTs have no standard). */
function tokenTypeOf(chain: ContractChainFacts | null, evidence: Pick<IndexEvidence, 'kinds'>): NftTokenType {
  if (chain === null) return 'NOT_A_CONTRACT';
  if (chain.standard !== 'none') return chain.standard;
  const [mostUsed] = evidence.kinds;
  return mostUsed === 'erc721' ? 'ERC721' : mostUsed === 'erc1155' ? 'ERC1155' : 'NO_SUPPORTED_NFT_STANDARD';
}
