import { z } from 'zod';
import { defineRpcMethod } from '../../../../src/node/rpc/method.ts';
import { createRpcRegistry, rpcRegistry } from '../../../../src/node/rpc/registry.ts';
import { Address } from '../../../../src/node/rpc/schemas/primitives.ts';

// The vendor methods come later (platform §4); these tests need one registered to see the
// alchemy_ alias work, so they build a registry with a stand-in crucible_ method.

export const tokenMetadataMethod = defineRpcMethod({
  name: 'crucible_getTokenMetadata',
  summary: 'Token metadata.',
  description: 'Name, symbol, decimals and logo of a token.',
  category: 'Token data',
  params: [{ name: 'contractAddress', required: true, schema: Address, description: 'The token.' }],
  result: { name: 'metadata', description: 'The metadata.', schema: z.object({ name: z.string().nullable() }) },
  computeUnits: 10,
});

export const registryWithVendor = createRpcRegistry([...rpcRegistry.methods, tokenMetadataMethod]);
