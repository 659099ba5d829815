import type { RpcMethod } from '../method.ts';

// The vendor methods (platform §4): crucible_getTokenBalances, crucible_getTokenMetadata and those
// that follow, category 'Token data', defined here like any other family. Every crucible_<x>
// listed here is also accepted as alchemy_<x> (resolveMethodName in registry.ts), so that clients
// written for the incumbent's SDK work unchanged; the alias needs no entry of its own.

export const vendorMethods: readonly RpcMethod[] = [];
