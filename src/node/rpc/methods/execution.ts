import { defineRpcMethod, type RpcParam } from '../method.ts';
import { HexData, HexQuantity } from '../schemas/primitives.ts';
import { StateOverride, TransactionCall } from '../schemas/requests.ts';
import { stateBlockParam } from './params.ts';

// Running a transaction without sending it: eth_call reads, eth_estimateGas sizes the gas limit.

const transactionParam: RpcParam = {
  name: 'transaction',
  required: true,
  schema: TransactionCall,
  description: 'The transaction to run: to, data, and optionally from, value, gas and fee fields.',
};

const stateOverrideParam: RpcParam = {
  name: 'stateOverride',
  required: false,
  schema: StateOverride,
  description: 'Temporary changes to accounts (balance, nonce, code, storage) for this call only.',
};

export const executionMethods = [
  defineRpcMethod({
    name: 'eth_call',
    summary: 'Runs a call against the state of a block and returns its output, without sending a transaction.',
    description:
      'Executes the transaction in the node against the state at the given block and returns what it returned. Nothing is signed or broadcast. A revert is answered with the node’s error (code 3) and the revert data.',
    category: 'Execution',
    params: [transactionParam, stateBlockParam, stateOverrideParam],
    result: { name: 'returnData', description: 'The bytes the call returned.', schema: HexData },
    computeUnits: 26,
    cache: { kind: 'when-final', blockParam: 1 },
  }),
  defineRpcMethod({
    name: 'eth_estimateGas',
    summary: 'Estimates the gas a transaction needs.',
    description:
      'Runs the transaction against the given block (default: the node’s choice, usually "latest") and returns the smallest gas limit with which it succeeds. A transaction that would revert is answered with the node’s error.',
    category: 'Execution',
    params: [
      transactionParam,
      { ...stateBlockParam, default: undefined, description: 'The block to estimate against. Default: the node’s own.' },
      stateOverrideParam,
    ],
    result: { name: 'gas', description: 'The gas estimate as a hex quantity.', schema: HexQuantity },
    computeUnits: 87,
  }),
];
