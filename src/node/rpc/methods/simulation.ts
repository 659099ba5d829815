import { z } from 'zod';
import { defineRpcMethod, type RpcParam } from '../method.ts';
import { Address, HexData, HexQuantity, kind, titled } from '../schemas/primitives.ts';
import { TransactionCall } from '../schemas/requests.ts';
import { stateBlockParam } from './params.ts';

// Transaction simulation (docs/tracing-and-simulation.md#simulation), category 'Simulation': a transaction, or a bundle of up to
// three run one after another, executed against a block's state without being sent. The
// simulation product (src/simulation/) answers them over the upstream's call tracer, so each is
// `served`; every crucible_<x> is also alchemy_<x>. A reverting transaction answers a result with
// its `error`, not a failed request.

/** The most transactions one bundle holds, as the incumbent's. */
const MAX_BUNDLE_TRANSACTIONS = 3;

const transactionParam: RpcParam = {
  name: 'transaction',
  required: true,
  schema: TransactionCall,
  description: 'The transaction to simulate: from, to, value, data, and optionally gas and fee fields (hex quantities). It is not signed and never sent.',
};

const bundlePhrase = `must be a list of 1 to ${MAX_BUNDLE_TRANSACTIONS} transaction call objects`;

const bundleParam: RpcParam = {
  name: 'transactions',
  required: true,
  schema: kind(
    z.array(TransactionCall, { error: bundlePhrase }).min(1, { error: bundlePhrase }).max(MAX_BUNDLE_TRANSACTIONS, { error: bundlePhrase }),
    'list of transaction call objects',
    bundlePhrase,
  ),
  description: `Up to ${MAX_BUNDLE_TRANSACTIONS} transactions, run in order: each sees what the ones before it changed.`,
};

const blockParam: RpcParam = {
  ...stateBlockParam,
  description: 'The block whose state the simulation starts from: a tag, a hex number or a block hash. Default "latest".',
};

const SimulationError = z.object({ message: z.string() }).nullable().describe('Why the transaction failed (a revert and its reason), or null.');

const AssetChange = titled(
  z.object({
    assetType: z.enum(['NATIVE', 'ERC20', 'ERC721', 'ERC1155', 'SPECIAL_NFT']),
    changeType: z.enum(['APPROVE', 'TRANSFER']),
    from: Address,
    to: Address,
    rawAmount: z
      .string()
      .nullable()
      .describe(
        'The amount in the smallest unit, as a decimal string: native and ERC-20 moves and allowances, ERC-1155 quantities; "0" for an approval withdrawn.',
      ),
    amount: z.string().nullable().describe('rawAmount with the decimals applied ("1.5"); null where the decimals are unknown.'),
    contractAddress: Address.nullable(),
    tokenId: z.string().nullable().describe('The token id as a decimal string (ERC-721, ERC-1155, legacy NFTs); null for an approval of every token.'),
    decimals: z.number().int().nullable(),
    symbol: z.string().nullable(),
    name: z.string().nullable(),
    logo: z.string().nullable(),
  }),
  'asset change',
);

const AssetChanges = titled(
  z.object({
    changes: z.array(AssetChange),
    gasUsed: HexQuantity.nullable().describe('The gas the transaction used; null when it failed.'),
    error: SimulationError,
  }),
  'asset changes',
);

const Decoded = z.looseObject({ authority: z.string() }).optional().describe('Present where the ABI is known (ERC-20, ERC-721, ERC-1155).');

const ExecutionCall = titled(
  z.object({
    type: z.string(),
    from: Address,
    to: Address,
    value: HexQuantity,
    gas: HexQuantity,
    gasUsed: HexQuantity,
    input: HexData,
    output: HexData,
    error: z.string().optional(),
    decoded: Decoded,
  }),
  'simulated call',
);

const ExecutionLog = titled(z.object({ address: Address, topics: z.array(z.string()), data: HexData, decoded: Decoded }), 'simulated log');

const Execution = titled(
  z.object({ calls: z.array(ExecutionCall).describe('Every call frame, outermost first, depth first.'), logs: z.array(ExecutionLog) }),
  'execution',
);

const simulation = { category: 'Simulation' as const, served: true };

export const simulationMethods = [
  defineRpcMethod({
    ...simulation,
    name: 'crucible_simulateAssetChanges',
    summary: 'Simulates a transaction and lists the assets it would move and approve.',
    description:
      'Runs the transaction against the block’s state and reads what it would do from its call trace: native coin moved by every call, ERC-20, ERC-721, ERC-1155 and legacy NFT (CryptoPunks-style) transfers, and approvals (ERC-20 allowances, ERC-721 approvals, approvals for all). Decimals, symbols, names and logos come from the token metadata. Nothing is broadcast. A reverting transaction answers no changes and its error. Also callable as alchemy_simulateAssetChanges.',
    params: [transactionParam, blockParam],
    result: {
      name: 'simulation',
      description:
        '{ changes: [{ assetType, changeType, from, to, rawAmount, amount, contractAddress, tokenId, decimals, symbol, name, logo }], gasUsed, error }',
      schema: AssetChanges,
    },
    computeUnits: 400,
  }),
  defineRpcMethod({
    ...simulation,
    name: 'crucible_simulateAssetChangesBundle',
    summary: 'Simulates up to three transactions in order and lists each one’s asset changes.',
    description:
      'As crucible_simulateAssetChanges for each transaction, each run on the state the ones before it left (a reverted one changes nothing). Also callable as alchemy_simulateAssetChangesBundle.',
    params: [bundleParam, blockParam],
    result: { name: 'simulations', description: 'One { changes, gasUsed, error } per transaction, in order.', schema: z.array(AssetChanges) },
    computeUnits: 1200,
  }),
  defineRpcMethod({
    ...simulation,
    name: 'crucible_simulateExecution',
    summary: 'Simulates a transaction and returns its calls and logs, decoded where the ABI is known.',
    description:
      'Every call frame (type, from, to, value, gas, gasUsed, input, output, error) outermost first, and the logs of the frames that did not revert; calls and logs of ERC-20, ERC-721 and ERC-1155 are decoded (authority "CRUCIBLE"). Nothing is broadcast. Also callable as alchemy_simulateExecution.',
    params: [transactionParam, blockParam],
    result: { name: 'execution', description: '{ calls, logs }', schema: Execution },
    computeUnits: 400,
  }),
  defineRpcMethod({
    ...simulation,
    name: 'crucible_simulateExecutionBundle',
    summary: 'Simulates up to three transactions in order and returns each one’s calls and logs.',
    description:
      'As crucible_simulateExecution for each transaction, each run on the state the ones before it left. Also callable as alchemy_simulateExecutionBundle.',
    params: [bundleParam, blockParam],
    result: { name: 'executions', description: 'One { calls, logs } per transaction, in order.', schema: z.array(Execution) },
    computeUnits: 1200,
  }),
];
