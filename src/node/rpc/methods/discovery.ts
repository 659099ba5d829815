import { z } from 'zod';
import { defineRpcMethod } from '../method.ts';
import { titled } from '../schemas/primitives.ts';

// rpc.discover (OpenRPC service discovery): the gateway answers it from the registry itself.

export const discoveryMethods = [
  defineRpcMethod({
    name: 'rpc.discover',
    summary: 'Returns the OpenRPC document of this endpoint.',
    description:
      'An OpenRPC 1.2.6 document listing every method this endpoint accepts, with its params, result, compute-unit cost (x-compute-units) and docs. The same document is served at {node_url}/openrpc.json.',
    category: 'Discovery',
    params: [],
    result: {
      name: 'openrpcDocument',
      description: 'The OpenRPC document.',
      schema: titled(z.looseObject({ openrpc: z.string(), info: z.looseObject({}), methods: z.array(z.looseObject({})) }), 'OpenRPC document'),
    },
    computeUnits: 0,
    answer: (_params, context) => context.openRpcDocument(),
  }),
];
