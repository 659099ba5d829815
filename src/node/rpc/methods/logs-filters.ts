import { z } from 'zod';
import { MAX_LOGS_FILTER_ADDRESSES, MAX_LOGS_FILTER_TOPICS } from '../limits.ts';
import { logsFilterRange, MAX_LOGS_BLOCK_RANGE } from '../block-range.ts';
import { defineRpcMethod, type RpcParam } from '../method.ts';
import { HexId } from '../schemas/primitives.ts';
import { LogFilter } from '../schemas/requests.ts';
import { FilterChanges, Log } from '../schemas/results.ts';

// Logs, and the node-side filters that are polled for changes. A filter lives on the upstream that
// made it, so calls that use a filter id go back to that upstream and are not retried elsewhere.

const count = (n: number) => n.toLocaleString('en-US');
const rangeLimit = `may span at most ${count(MAX_LOGS_BLOCK_RANGE)} blocks (block tags count from the chain’s head)`;

const filterParam: RpcParam = {
  name: 'filter',
  required: true,
  schema: LogFilter,
  description: `fromBlock and toBlock (tags or hex numbers, default "latest") or blockHash; address (one or a list of at most ${count(MAX_LOGS_FILTER_ADDRESSES)}); topics (up to 4 positions, each null, a topic or a list of at most ${count(MAX_LOGS_FILTER_TOPICS)}).`,
};

const filterIdParam: RpcParam = { name: 'filterId', required: true, schema: HexId, description: 'The id a eth_new*Filter call returned.' };

const newFilterResult = { name: 'filterId', description: 'The id of the new filter.', schema: HexId };

export const logsFiltersMethods = [
  defineRpcMethod({
    name: 'eth_getLogs',
    summary: 'Returns the logs that match a filter.',
    description: `Event logs emitted in a block range (or one block by hash), optionally only from some addresses and with some topics. One call ${rangeLimit}; split longer ranges.`,
    category: 'Logs and filters',
    params: [filterParam],
    result: { name: 'logs', description: 'The matching logs, oldest first.', schema: z.array(Log) },
    computeUnits: 75,
    blockRange: logsFilterRange,
  }),
  defineRpcMethod({
    name: 'eth_newFilter',
    summary: 'Creates a log filter on the node and returns its id.',
    description: `A filter that collects logs matching the given criteria; poll it with eth_getFilterChanges. Nodes drop filters not polled for about five minutes. Its block range ${rangeLimit}, measured when it is made.`,
    category: 'Logs and filters',
    params: [filterParam],
    result: newFilterResult,
    computeUnits: 20,
    filterAffinity: 'creates',
    blockRange: logsFilterRange,
  }),
  defineRpcMethod({
    name: 'eth_newBlockFilter',
    summary: 'Creates a filter for new blocks and returns its id.',
    description: 'A filter that collects the hashes of new blocks; poll it with eth_getFilterChanges.',
    category: 'Logs and filters',
    params: [],
    result: newFilterResult,
    computeUnits: 20,
    filterAffinity: 'creates',
  }),
  defineRpcMethod({
    name: 'eth_newPendingTransactionFilter',
    summary: 'Creates a filter for new pending transactions and returns its id.',
    description: 'A filter that collects the hashes of transactions entering the node’s mempool; poll it with eth_getFilterChanges.',
    category: 'Logs and filters',
    params: [],
    result: newFilterResult,
    computeUnits: 20,
    filterAffinity: 'creates',
  }),
  defineRpcMethod({
    name: 'eth_getFilterChanges',
    summary: 'Returns what a filter collected since it was last polled.',
    description: 'Block hashes, transaction hashes or logs, depending on the filter, that arrived since the previous call for the same filter.',
    category: 'Logs and filters',
    params: [filterIdParam],
    result: { name: 'changes', description: 'Hashes or logs.', schema: FilterChanges },
    computeUnits: 20,
    idempotent: false,
    filterAffinity: 'uses',
  }),
  defineRpcMethod({
    name: 'eth_getFilterLogs',
    summary: 'Returns every log that matches a log filter.',
    description: 'All logs matching the criteria of a filter made with eth_newFilter, not only the new ones.',
    category: 'Logs and filters',
    params: [filterIdParam],
    result: { name: 'logs', description: 'The matching logs.', schema: z.array(Log) },
    computeUnits: 75,
    idempotent: false,
    filterAffinity: 'uses',
  }),
  defineRpcMethod({
    name: 'eth_uninstallFilter',
    summary: 'Removes a filter.',
    description: 'Deletes the filter from the node; true when it existed.',
    category: 'Logs and filters',
    params: [filterIdParam],
    result: { name: 'removed', description: 'true when the filter existed.', schema: z.boolean() },
    computeUnits: 10,
    idempotent: false,
    filterAffinity: 'uses',
  }),
];
