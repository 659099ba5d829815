import type { Abi, Hex } from 'viem';
import { z } from 'zod';
import airdropCollection from '../../../contracts/artifacts/AirdropCollection.json' with { type: 'json' };
import bytes32MetadataToken from '../../../contracts/artifacts/Bytes32MetadataToken.json' with { type: 'json' };
import crucibleMarketplace from '../../../contracts/artifacts/CrucibleMarketplace.json' with { type: 'json' };
import legacyPunks from '../../../contracts/artifacts/LegacyPunks.json' with { type: 'json' };
import materialCollection from '../../../contracts/artifacts/MaterialCollection.json' with { type: 'json' };
import multicall3 from '../../../contracts/artifacts/Multicall3.json' with { type: 'json' };
import noMetadataToken from '../../../contracts/artifacts/NoMetadataToken.json' with { type: 'json' };
import relicCollection from '../../../contracts/artifacts/RelicCollection.json' with { type: 'json' };
import revertingBalanceToken from '../../../contracts/artifacts/RevertingBalanceToken.json' with { type: 'json' };
import valueForwarder from '../../../contracts/artifacts/ValueForwarder.json' with { type: 'json' };
import worldPriceFeed from '../../../contracts/artifacts/WorldPriceFeed.json' with { type: 'json' };
import worldToken from '../../../contracts/artifacts/WorldToken.json' with { type: 'json' };
import worldWrappedEther from '../../../contracts/artifacts/WorldWrappedEther.json' with { type: 'json' };
import uniswapV2Factory from '@uniswap/v2-core/build/UniswapV2Factory.json' with { type: 'json' };
import uniswapV2Pair from '@uniswap/v2-core/build/UniswapV2Pair.json' with { type: 'json' };

// The compiled contracts of the local world: ours (contracts/artifacts/, written by `npm run contracts`)
// and Uniswap V2's core as published (@uniswap/v2-core's build/, deployed as it is, never recompiled).

export interface ContractArtifact {
  contractName: string;
  abi: Abi;
  /** Creation code, without constructor arguments. */
  bytecode: Hex;
  /** Runtime code, what `eth_getCode` returns once deployed. */
  deployedBytecode: Hex;
}

const hex = z.string().regex(/^0x(?:[0-9a-f]{2})+$/) as z.ZodType<Hex>;
const artifactSchema = z.object({
  contractName: z.string(),
  // Solidity's ABI JSON; only its shape as a list of typed entries is checked.
  abi: z.array(z.looseObject({ type: z.string() })) as unknown as z.ZodType<Abi>,
  bytecode: hex,
  deployedBytecode: hex,
});

const artifact = (json: unknown): ContractArtifact => artifactSchema.parse(json);

// The published build is solc's standard JSON output: code without its 0x, under evm.
const publishedSchema = z.object({
  abi: artifactSchema.shape.abi,
  evm: z.object({ bytecode: z.object({ object: z.string() }), deployedBytecode: z.object({ object: z.string() }) }),
});
const published = (contractName: string, json: unknown): ContractArtifact => {
  const { abi, evm } = publishedSchema.parse(json);
  return artifact({ contractName, abi, bytecode: `0x${evm.bytecode.object}`, deployedBytecode: `0x${evm.deployedBytecode.object}` });
};

export const ARTIFACTS = {
  AirdropCollection: artifact(airdropCollection),
  Bytes32MetadataToken: artifact(bytes32MetadataToken),
  CrucibleMarketplace: artifact(crucibleMarketplace),
  LegacyPunks: artifact(legacyPunks),
  MaterialCollection: artifact(materialCollection),
  Multicall3: artifact(multicall3),
  NoMetadataToken: artifact(noMetadataToken),
  RelicCollection: artifact(relicCollection),
  RevertingBalanceToken: artifact(revertingBalanceToken),
  ValueForwarder: artifact(valueForwarder),
  WorldPriceFeed: artifact(worldPriceFeed),
  WorldToken: artifact(worldToken),
  WorldWrappedEther: artifact(worldWrappedEther),
  UniswapV2Factory: published('UniswapV2Factory', uniswapV2Factory),
  UniswapV2Pair: published('UniswapV2Pair', uniswapV2Pair),
} satisfies Record<string, ContractArtifact>;
