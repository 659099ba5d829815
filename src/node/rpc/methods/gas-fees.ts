import { defineRpcMethod } from '../method.ts';
import { BlockTagOrNumber, HexQuantity } from '../schemas/primitives.ts';
import { BlockCount, RewardPercentiles } from '../schemas/requests.ts';
import { FeeHistory } from '../schemas/results.ts';

// Gas prices and fee markets (EIP-1559, EIP-4844).

export const gasFeesMethods = [
  defineRpcMethod({
    name: 'eth_gasPrice',
    summary: 'Returns the node’s suggested gas price in wei.',
    description: 'A legacy gas price that should get a transaction included soon: the base fee plus a suggested priority fee on EIP-1559 networks.',
    category: 'Gas and fees',
    params: [],
    result: { name: 'gasPrice', description: 'The gas price in wei, as a hex quantity.', schema: HexQuantity },
    computeUnits: 19,
  }),
  defineRpcMethod({
    name: 'eth_maxPriorityFeePerGas',
    summary: 'Returns a suggested priority fee (tip) per gas in wei.',
    description: 'The tip the node suggests for maxPriorityFeePerGas of an EIP-1559 transaction, from the tips of recent blocks.',
    category: 'Gas and fees',
    params: [],
    result: { name: 'maxPriorityFeePerGas', description: 'The suggested tip in wei, as a hex quantity.', schema: HexQuantity },
    computeUnits: 10,
  }),
  defineRpcMethod({
    name: 'eth_feeHistory',
    summary: 'Returns base fees, gas use and priority-fee percentiles of recent blocks.',
    description:
      'For blockCount blocks ending at newestBlock: the base fee of each (and of the next block), how full each was, and the priority fees paid at the asked percentiles. Wallets derive their fee suggestions from it.',
    category: 'Gas and fees',
    params: [
      { name: 'blockCount', required: true, schema: BlockCount, description: 'How many blocks (nodes cap it, commonly at 1024).' },
      { name: 'newestBlock', required: true, schema: BlockTagOrNumber, description: 'The last block of the range: a tag or a hex number.' },
      {
        name: 'rewardPercentiles',
        required: false,
        schema: RewardPercentiles,
        description: 'Increasing percentiles (0–100) of priority fees to report per block.',
      },
    ],
    result: { name: 'feeHistory', description: 'The fee history of the range.', schema: FeeHistory },
    computeUnits: 10,
  }),
  defineRpcMethod({
    name: 'eth_blobBaseFee',
    summary: 'Returns the base fee per blob gas of the next block (EIP-4844).',
    description: 'What one unit of blob gas costs in the next block, for transactions that carry blobs. Networks without blobs answer with an error.',
    category: 'Gas and fees',
    params: [],
    result: { name: 'blobBaseFee', description: 'The blob base fee in wei, as a hex quantity.', schema: HexQuantity },
    computeUnits: 10,
  }),
];
