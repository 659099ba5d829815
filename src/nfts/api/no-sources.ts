import type { NftContractSource, NftMetadataSource } from '../ports.ts';

// Sources that know nothing: the NFT endpoints answer from the transfer index alone (ownership,
// balances, mint, acquiredAt), every metadata and contract field null, until a process is given the
// metadata store and the contract reader.

export const noNftMetadata: NftMetadataSource = { metadataOf: async () => new Map() };

export const noNftContracts: NftContractSource = { contractsOf: async () => new Map() };
