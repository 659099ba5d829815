import { keccak256 } from 'viem';
import { z } from 'zod';
import { defineRpcMethod } from '../method.ts';
import { Hash32, HexData, HexQuantity } from '../schemas/primitives.ts';
import { SyncStatus } from '../schemas/results.ts';

// The chain and the node: identity, head, sync state, and web3_/net_ basics.

export const chainMethods = [
  defineRpcMethod({
    name: 'eth_chainId',
    summary: 'Returns the chain id of the network (EIP-155).',
    description: 'The chain id used to sign transactions for this network. It never changes, so the gateway answers it from its cache after the first call.',
    category: 'Chain',
    params: [],
    result: { name: 'chainId', description: 'The chain id as a hex quantity.', schema: HexQuantity },
    computeUnits: 0,
    cache: { kind: 'forever' },
  }),
  defineRpcMethod({
    name: 'net_version',
    summary: 'Returns the network id as a decimal string.',
    description: 'The network id, which on current networks equals the chain id, written in decimal. Kept for older clients; prefer eth_chainId.',
    category: 'Chain',
    params: [],
    result: { name: 'networkId', description: 'The network id in decimal.', schema: z.string().regex(/^[0-9]+$/) },
    computeUnits: 0,
    cache: { kind: 'forever' },
  }),
  defineRpcMethod({
    name: 'eth_blockNumber',
    summary: 'Returns the number of the most recent block.',
    description: 'The height of the chain head as the serving node sees it. Nodes behind a load balancer can differ by a block or two.',
    category: 'Chain',
    params: [],
    result: { name: 'blockNumber', description: 'The latest block number as a hex quantity.', schema: HexQuantity },
    computeUnits: 10,
  }),
  defineRpcMethod({
    name: 'eth_syncing',
    summary: 'Returns whether the node is syncing, and its progress if it is.',
    description:
      'false when the node is in step with the network; otherwise the block it started from, the block it has reached, and the highest block it knows of.',
    category: 'Chain',
    params: [],
    result: { name: 'syncing', description: 'false, or the sync progress.', schema: SyncStatus },
    computeUnits: 0,
  }),
  defineRpcMethod({
    name: 'eth_protocolVersion',
    summary: 'Returns the Ethereum wire protocol version of the node.',
    description: 'The version of the peer-to-peer protocol the node speaks. Some clients no longer implement it and answer with an error.',
    category: 'Chain',
    params: [],
    result: { name: 'protocolVersion', description: 'The protocol version.', schema: z.string() },
    computeUnits: 0,
  }),
  defineRpcMethod({
    name: 'net_listening',
    summary: 'Returns whether the node is listening for peers.',
    description:
      'true when the node accepts network connections. A node behind the gateway that cannot answer is taken out of service, so this is normally true.',
    category: 'Chain',
    params: [],
    result: { name: 'listening', description: 'true when listening.', schema: z.boolean() },
    computeUnits: 0,
  }),
  defineRpcMethod({
    name: 'net_peerCount',
    summary: 'Returns the number of peers connected to the node.',
    description: 'How many peers the serving node has. Different upstreams have different counts; the number is for diagnostics only.',
    category: 'Chain',
    params: [],
    result: { name: 'peerCount', description: 'The peer count as a hex quantity.', schema: HexQuantity },
    computeUnits: 0,
  }),
  defineRpcMethod({
    name: 'web3_clientVersion',
    summary: 'Returns the name and version of the node software.',
    description:
      'The client string of the upstream that served the call, such as "Geth/v1.14.0-stable/linux-amd64/go1.22". Upstreams of one network may run different clients.',
    category: 'Chain',
    params: [],
    result: { name: 'clientVersion', description: 'The client name and version.', schema: z.string() },
    computeUnits: 15,
  }),
  defineRpcMethod({
    name: 'web3_sha3',
    summary: 'Returns the Keccak-256 hash of the given data.',
    description: 'Keccak-256 (not the standardised SHA3-256) of the bytes given. The gateway computes it itself; no node is asked.',
    category: 'Chain',
    params: [{ name: 'data', required: true, schema: HexData, description: 'The bytes to hash, as hex data.' }],
    result: { name: 'hash', description: 'The Keccak-256 hash.', schema: Hash32 },
    computeUnits: 15,
    answer: ([data]) => keccak256(data as `0x${string}`),
  }),
];
