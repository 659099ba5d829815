import { describe, expect, it } from 'vitest';
import { rpcRegistry } from '../../../../src/node/rpc/registry.ts';
import { validateCall } from '../../../../src/node/rpc/validate.ts';

const address = `0x${'a1'.repeat(20)}`;
const hash = `0x${'b2'.repeat(32)}`;
/** A signed EIP-1559 transfer (chain 84532, nonce 0), as eth_sendRawTransaction takes one. */
const signedTransaction =
  '0x02f86d83014a3480843b9aca00847735940082520894000000000000000000000000000000000000dead0180c001a051337169fbe3c9a6260e797bece1b9ebd55461d1aa233fbff335ec733b860d33a002b9d1812f88769d45863ed6d6557e73a346adbd45fc10f61ab428b93dd6dc53';
const options = { docsUrl: 'https://crucible.test/rpc', transport: 'websocket' as const };

function accepted(method: string, params: unknown[]): unknown[] {
  const checked = validateCall({ method, params }, options);
  if (!checked.ok) throw new Error(`${method} ${JSON.stringify(params)}: ${checked.failure.error.message}`);
  return checked.params;
}

function refused(method: string, params: unknown[]): string {
  const checked = validateCall({ method, params }, options);
  if (checked.ok) throw new Error(`${method} ${JSON.stringify(params)} was accepted`);
  expect(checked.failure).toMatchObject({ httpStatus: 200, error: { code: -32602 } });
  return checked.failure.error.message;
}

/** A typical valid call of every method that takes params: each registry method must have one. */
const examples: Record<string, unknown[]> = {
  web3_sha3: ['0x68656c6c6f'],
  eth_getBlockByNumber: ['latest', true],
  eth_getBlockByHash: [hash, false],
  eth_getBlockTransactionCountByNumber: ['0x1b4'],
  eth_getBlockTransactionCountByHash: [hash],
  eth_getUncleCountByBlockNumber: ['earliest'],
  eth_getUncleCountByBlockHash: [hash],
  eth_getBlockReceipts: [hash],
  eth_getTransactionByHash: [hash],
  eth_getTransactionByBlockNumberAndIndex: ['finalized', '0x0'],
  eth_getTransactionByBlockHashAndIndex: [hash, '0x2'],
  eth_getTransactionReceipt: [hash],
  eth_sendRawTransaction: ['0x02f86b83aa36a7'],
  eth_getBalance: [address, 'latest'],
  eth_getCode: [address, { blockHash: hash, requireCanonical: true }],
  eth_getStorageAt: [address, `0x${'0'.repeat(63)}1`, '0x10'],
  eth_getTransactionCount: [address, 'pending'],
  eth_getProof: [address, [`0x${'0'.repeat(64)}`], { blockNumber: '0x10' }],
  eth_call: [{ to: address, data: '0x70a08231', from: null }, 'safe', { [address]: { balance: '0xde0b6b3a7640000' } }],
  eth_estimateGas: [{ from: address, to: address, value: '0x1', type: '0x2', maxFeePerGas: '0x3b9aca00' }],
  eth_feeHistory: ['0x4', 'latest', [25, 50, 75]],
  eth_getLogs: [{ fromBlock: '0x1', toBlock: '0x2710', address: [address], topics: [hash, null, [hash, hash]] }],
  eth_newFilter: [{ address, topics: [] }],
  eth_getFilterChanges: ['0x1'],
  eth_getFilterLogs: ['0xa3f8e21c0d'],
  eth_uninstallFilter: ['0x1'],
  eth_subscribe: ['logs', { address, topics: [hash] }],
  eth_unsubscribe: ['0x9cef478923ff08bf67fde6c64013158d'],
  crucible_getAssetTransfers: [{ fromBlock: '0x0', toAddress: address, category: ['external', 'erc20'], maxCount: '0x64', order: 'desc', withMetadata: true }],
  crucible_getTokenBalances: [address, [address], null],
  crucible_getTokenMetadata: [address],
  crucible_getTokenAllowance: [{ contract: address, owner: address, spender: address }],
  crucible_getTransactionReceipts: [{ blockNumber: '0x5' }],
  crucible_sendPrivateTransaction: [{ tx: signedTransaction, maxBlockNumber: '0x14', preferences: { fast: true } }],
  crucible_cancelPrivateTransaction: [{ txHash: hash }],
  debug_traceTransaction: [hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: false, timeout: '10s' } }],
  debug_traceCall: [{ from: address, to: address, data: '0x' }, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }],
  debug_traceBlockByNumber: ['0x100', { tracer: 'callTracer' }],
  debug_traceBlockByHash: [hash, { tracer: 'prestateTracer', timeout: '5s' }],
  trace_block: ['latest'],
  trace_transaction: [hash],
  trace_call: [{ to: address, data: '0x70a08231' }, ['trace', 'stateDiff'], 'latest'],
  trace_filter: [{ fromBlock: '0x1', toBlock: '0x64', toAddress: [address], count: 10 }],
  crucible_simulateAssetChanges: [{ from: address, to: address, value: '0xde0b6b3a7640000' }],
  crucible_simulateAssetChangesBundle: [
    [
      { from: address, to: address, value: '0x1' },
      { from: address, to: address, data: '0xa9059cbb' },
    ],
    '0x10',
  ],
  crucible_simulateExecution: [{ from: address, to: address, data: '0x70a08231' }, 'latest'],
  crucible_simulateExecutionBundle: [[{ from: address, to: address }]],
};

describe('every method with params', () => {
  it('accepts a typical call (and has an example here)', () => {
    const withParams = rpcRegistry.methods.filter((method) => method.params.length > 0).map((method) => method.name);
    expect(Object.keys(examples).sort()).toEqual([...withParams].sort());
    for (const [method, params] of Object.entries(examples)) accepted(method, params);
  });

  it('refuses one param too many, and a missing required param, naming it', () => {
    for (const method of rpcRegistry.methods) {
      const full = examples[method.name] ?? [];
      const padded = [...full, ...method.params.slice(full.length).map(() => null)];
      const plural = method.params.length === 1 ? '' : 's';
      expect(refused(method.name, [...padded, '0x1'])).toBe(
        `invalid params: ${method.name} takes at most ${method.params.length} param${plural}, got ${method.params.length + 1}`,
      );
      const required = method.params.findIndex((param) => param.required);
      if (required >= 0)
        expect(refused(method.name, full.slice(0, required))).toBe(`invalid params: [${required}] ${method.params[required]!.name} is required`);
    }
  });
});

describe('omitted optional params', () => {
  it('fills a default where the param has one, so every upstream sees the same call', () => {
    expect(accepted('eth_getBalance', [address])).toEqual([address, 'latest']);
    expect(accepted('eth_getBalance', [address, null])).toEqual([address, 'latest']);
    expect(accepted('eth_call', [{ to: address }])).toEqual([{ to: address }, 'latest']);
    expect(accepted('eth_getBlockByHash', [hash])).toEqual([hash, false]);
  });

  it('drops trailing ones without a default, and keeps a null before a given param', () => {
    expect(accepted('eth_estimateGas', [{ to: address }, null])).toEqual([{ to: address }]);
    expect(accepted('eth_feeHistory', ['0x1', 'latest'])).toEqual(['0x1', 'latest']);
    expect(accepted('eth_estimateGas', [{ to: address }, null, {}])).toEqual([{ to: address }, null, {}]);
    expect(accepted('eth_call', [{ to: address }, null, {}])).toEqual([{ to: address }, 'latest', {}]);
  });

  it('passes through object fields the schema does not name (new transaction fields)', () => {
    const call = { to: address, authorizationList: [{ chainId: '0x1' }] };
    expect(accepted('eth_call', [call, 'latest'])).toEqual([call, 'latest']);
  });
});

describe('each param kind: good and bad values, with a message naming the param', () => {
  const blockTagMessage = 'must be "latest", "earliest", "pending", "safe", "finalized" or a hex block number';

  it('hex quantity: no leading zeros, hex digits only, a string', () => {
    for (const index of ['0x0', '0x1', '0xff', '0xFF', '0x10']) accepted('eth_getTransactionByBlockHashAndIndex', [hash, index]);
    for (const index of ['0x', '0x01', '1', '0xg', 1, null, '0x1 ']) {
      expect(refused('eth_getTransactionByBlockHashAndIndex', [hash, index])).toBe(
        'invalid params: [1] index must be a hex quantity such as "0x1f" (no leading zeros)',
      );
    }
  });

  it('address: 20 bytes of hex, any case', () => {
    for (const value of [address, address.toUpperCase().replace('0X', '0x')]) accepted('eth_getCode', [value]);
    for (const value of [address.slice(0, -2), `${address}00`, address.slice(2), 'vitalik.eth', 42]) {
      expect(refused('eth_getCode', [value])).toBe('invalid params: [0] address must be a 20-byte address: "0x" and 40 hex digits');
    }
  });

  it('32-byte hash', () => {
    for (const value of [hash.slice(0, -2), `${hash}00`, address, '', { hash }]) {
      expect(refused('eth_getTransactionReceipt', [value])).toBe('invalid params: [0] transactionHash must be a 32-byte hash: "0x" and 64 hex digits');
    }
  });

  it('block tag or number: the five tags or a hex number', () => {
    for (const tag of ['latest', 'earliest', 'pending', 'safe', 'finalized', '0x0', '0x1b4']) accepted('eth_getBlockByNumber', [tag]);
    for (const tag of ['Latest', 'head', '0x01', '12', 12, null, { blockNumber: '0x1' }]) {
      expect(refused('eth_getBlockByNumber', [tag])).toBe(`invalid params: [0] blockTag ${blockTagMessage}`);
    }
  });

  it('block param: tags, numbers and EIP-1898 objects where state is read', () => {
    for (const block of ['pending', '0x5', hash, { blockHash: hash }, { blockHash: hash, requireCanonical: false }, { blockNumber: '0x5' }]) {
      accepted('eth_getBalance', [address, block]);
    }
    for (const block of ['newest', '0x05', `0x${'1'.repeat(17)}`, 5, true, [hash]]) {
      expect(refused('eth_getBalance', [address, block])).toMatch(
        new RegExp(`^invalid params: \\[1\\] blockTag ${blockTagMessage}, a 32-byte block hash, or \\{"blockHash"`),
      );
    }
    expect(refused('eth_getBalance', [address, { blockHash: '0x12' }])).toBe(
      'invalid params: [1] blockTag.blockHash must be a 32-byte hash: "0x" and 64 hex digits',
    );
    expect(refused('eth_getBalance', [address, { blockHash: hash, requireCanonical: 'yes' }])).toBe(
      'invalid params: [1] blockTag.requireCanonical must be true or false',
    );
    for (const block of [{}, { hash }, { blockHash: hash, blockNumber: '0x1' }]) {
      expect(refused('eth_getBalance', [address, block])).toBe('invalid params: [1] blockTag must name exactly one of blockHash and blockNumber');
    }
  });

  it('block numbers fit in 64 bits, so a block hash is never read as a number', () => {
    for (const block of [hash, 'latest', '0xffffffffffffffff', { blockHash: hash }]) accepted('eth_getBlockReceipts', [block]);
    for (const block of ['0x0123', '0x10000000000000000', `0x${'1'.repeat(63)}`])
      expect(refused('eth_getBlockReceipts', [block])).toMatch(/^invalid params: \[0\] block must be /);
    expect(refused('eth_getBlockByNumber', [hash])).toBe(`invalid params: [0] blockTag ${blockTagMessage}`);
  });

  it('crucible_getTransactionReceipts names one block, by number (or tag) or by hash', () => {
    for (const block of [{ blockNumber: '0x5' }, { blockNumber: 'latest' }, { blockHash: hash }]) accepted('crucible_getTransactionReceipts', [block]);
    expect(refused('crucible_getTransactionReceipts', [{}])).toBe('invalid params: [0] block must name exactly one of blockNumber and blockHash');
    expect(refused('crucible_getTransactionReceipts', [{ blockNumber: '0x5', blockHash: hash }])).toBe(
      'invalid params: [0] block must name exactly one of blockNumber and blockHash',
    );
    expect(refused('crucible_getTransactionReceipts', [{ blockNumber: '0x5', number: 5 }])).toBe(
      'invalid params: [0] block has no field number: only blockNumber or blockHash',
    );
    expect(refused('crucible_getTransactionReceipts', ['0x5'])).toMatch(/^invalid params: \[0\] block must be \{"blockNumber"/);
  });

  it('private transactions take one object: a signed transaction, a hex maxBlockNumber and preferences; a 32-byte txHash', () => {
    for (const method of ['eth_sendPrivateTransaction', 'alchemy_sendPrivateTransaction', 'crucible_sendPrivateTransaction']) {
      expect(accepted(method, [{ tx: signedTransaction }])).toEqual([{ tx: signedTransaction }]);
    }
    accepted('eth_sendPrivateTransaction', [{ tx: signedTransaction, preferences: { fast: false, privacy: { hints: ['hash'] } } }]);
    expect(refused('eth_sendPrivateTransaction', [{ tx: '0x1234' }])).toBe(
      'invalid params: [0] request tx must be a signed transaction (RLP or a typed envelope)',
    );
    expect(refused('eth_sendPrivateTransaction', [{ tx: '0xzz' }])).toMatch(/^invalid params: \[0\] request\.tx must be non-empty hex data/);
    expect(refused('eth_sendPrivateTransaction', [{ tx: signedTransaction, maxBlockNumber: 20 }])).toMatch(/^invalid params: \[0\] request\.maxBlockNumber /);
    expect(refused('eth_sendPrivateTransaction', [{ tx: signedTransaction, preferences: { fast: 1 } }])).toMatch(
      /^invalid params: \[0\] request\.preferences\.fast must be true or false/,
    );
    expect(refused('eth_sendPrivateTransaction', [signedTransaction])).toMatch(/^invalid params: \[0\] request /);
    expect(refused('eth_cancelPrivateTransaction', [{ txHash: '0x12' }])).toMatch(/^invalid params: \[0\] request\.txHash must be a 32-byte hash/);
    expect(refused('eth_cancelPrivateTransaction', [{ txHash: hash, extra: 1 }])).toMatch(/^invalid params: \[0\] request /);
  });

  it('crucible_getTokenAllowance takes one object of three addresses', () => {
    expect(refused('crucible_getTokenAllowance', [{ contract: address, owner: address }])).toMatch(/^invalid params: \[0\] query\.spender /);
    expect(refused('crucible_getTokenAllowance', [{ contract: address, owner: address, spender: '0x12' }])).toBe(
      'invalid params: [0] query.spender must be a 20-byte address: "0x" and 40 hex digits',
    );
  });

  it('booleans are booleans, not strings or numbers', () => {
    for (const full of ['true', 1, 0])
      expect(refused('eth_getBlockByNumber', ['latest', full])).toBe('invalid params: [1] fullTransactions must be true or false');
  });

  it('hex data: an even number of digits; a raw transaction is not empty', () => {
    accepted('web3_sha3', ['0x']);
    expect(refused('web3_sha3', ['0x123'])).toBe('invalid params: [0] data must be hex data: "0x" and an even number of hex digits');
    expect(refused('eth_sendRawTransaction', ['0x'])).toBe(
      'invalid params: [0] signedTransaction must be non-empty hex data: "0x" and an even number of hex digits',
    );
  });

  it('storage slots: up to 32 bytes, padded or not', () => {
    for (const slot of ['0x0', '0x00', `0x${'f'.repeat(64)}`]) accepted('eth_getStorageAt', [address, slot]);
    for (const slot of ['0x', `0x${'f'.repeat(65)}`, 0])
      expect(refused('eth_getStorageAt', [address, slot])).toMatch(/^invalid params: \[1\] slot must be a storage slot/);
    expect(refused('eth_getProof', [address, ['0x1', 'x'], 'latest'])).toMatch(/^invalid params: \[1\] storageKeys\[1\] must be a storage slot/);
  });

  it('transaction call objects: each field checked, named by its path', () => {
    expect(refused('eth_call', ['0x12'])).toMatch(/^invalid params: \[0\] transaction must be a transaction call object/);
    expect(refused('eth_call', [{ to: '0x12' }])).toBe('invalid params: [0] transaction.to must be a 20-byte address: "0x" and 40 hex digits');
    expect(refused('eth_call', [{ to: address, value: 10 }])).toMatch(/^invalid params: \[0\] transaction.value must be a hex quantity/);
    expect(refused('eth_call', [{ to: address, data: '0xabc' }])).toMatch(/^invalid params: \[0\] transaction.data must be hex data/);
    expect(refused('eth_estimateGas', [{ accessList: [{ address, storageKeys: ['0x1'] }] }])).toMatch(
      /^invalid params: \[0\] transaction.accessList\[0\].storageKeys\[0\] must be a 32-byte hash/,
    );
  });

  it('state overrides: keyed by address', () => {
    expect(refused('eth_call', [{ to: address }, 'latest', 'none'])).toMatch(/^invalid params: \[2\] stateOverride must be an object mapping addresses/);
    expect(refused('eth_call', [{ to: address }, 'latest', { [address]: { balance: 1 } }])).toMatch(
      new RegExp(`^invalid params: \\[2\\] stateOverride.${address}.balance must be a hex quantity`),
    );
  });

  it('log filters: block range or block hash, addresses, up to four topic positions', () => {
    accepted('eth_getLogs', [{}]);
    accepted('eth_getLogs', [{ blockHash: hash, address }]);
    expect(refused('eth_getLogs', [[]])).toMatch(/^invalid params: \[0\] filter must be a log filter object/);
    expect(refused('eth_getLogs', [{ fromBlock: '0x01' }])).toBe(`invalid params: [0] filter.fromBlock ${blockTagMessage}`);
    expect(refused('eth_getLogs', [{ toBlock: 'head' }])).toBe(`invalid params: [0] filter.toBlock ${blockTagMessage}`);
    expect(refused('eth_getLogs', [{ blockHash: hash, fromBlock: '0x1' }])).toBe(
      'invalid params: [0] filter.blockHash cannot have blockHash together with fromBlock or toBlock',
    );
    expect(refused('eth_getLogs', [{ address: 'x' }])).toMatch(/^invalid params: \[0\] filter.address must be /);
    expect(refused('eth_getLogs', [{ topics: [null, null, null, null, null] }])).toBe('invalid params: [0] filter.topics must have at most 4 positions');
    expect(refused('eth_newFilter', [{ topics: ['0x12'] }])).toMatch(/^invalid params: \[0\] filter.topics\[0\] must be /);
  });

  it('fee history: a count as hex or integer, increasing percentiles', () => {
    expect(accepted('eth_feeHistory', [10, 'latest'])).toEqual([10, 'latest']);
    for (const count of [0, 1025, 1.5, '10'])
      expect(refused('eth_feeHistory', [count, 'latest'])).toMatch(/^invalid params: \[0\] blockCount must be a hex quantity or an integer/);
    for (const percentiles of [[50, 10], 'all']) {
      expect(refused('eth_feeHistory', ['0x1', 'latest', percentiles])).toBe(
        'invalid params: [2] rewardPercentiles must be a list of increasing numbers from 0 to 100',
      );
    }
    for (const percentile of [101, -1, '50']) {
      expect(refused('eth_feeHistory', ['0x1', 'latest', [10, percentile]])).toBe('invalid params: [2] rewardPercentiles[1] must be a number from 0 to 100');
    }
  });
});

describe('eth_subscribe kinds (docs/json-rpc.md#subscriptions)', () => {
  it('takes newHeads, logs with an optional filter, and newPendingTransactions with an optional boolean', () => {
    expect(accepted('eth_subscribe', ['newHeads'])).toEqual(['newHeads']);
    expect(accepted('eth_subscribe', ['logs'])).toEqual(['logs']);
    expect(accepted('eth_subscribe', ['logs', { address: [address], topics: [hash] }])).toEqual(['logs', { address: [address], topics: [hash] }]);
    expect(accepted('eth_subscribe', ['newPendingTransactions', true])).toEqual(['newPendingTransactions', true]);
  });

  it('refuses any other kind with -32602', () => {
    for (const kind of ['syncing', 'alchemy_newFullPendingTransactions', 'newheads', 'alchemy_minedtransactions', '', 1]) {
      expect(refused('eth_subscribe', [kind])).toBe(
        'invalid params: [0] subscription must be "newHeads", "logs", "newPendingTransactions", "crucible_pendingTransactions" or "crucible_minedTransactions" (also named alchemy_pendingTransactions, alchemy_minedTransactions)',
      );
    }
  });

  it('takes the transactions kinds by both names, with the filters alchemy-sdk sends', () => {
    const pending = { fromAddress: [address, address.toUpperCase().replace('0X', '0x')], toAddress: address, hashesOnly: true };
    const mined = { addresses: [{ to: address, from: address }, { from: address }], includeRemoved: true, hashesOnly: false };
    for (const prefix of ['alchemy_', 'crucible_']) {
      expect(accepted('eth_subscribe', [`${prefix}pendingTransactions`, pending])).toEqual([`${prefix}pendingTransactions`, pending]);
      expect(accepted('eth_subscribe', [`${prefix}pendingTransactions`, {}])).toEqual([`${prefix}pendingTransactions`, {}]);
      expect(accepted('eth_subscribe', [`${prefix}pendingTransactions`])).toEqual([`${prefix}pendingTransactions`]);
      expect(accepted('eth_subscribe', [`${prefix}minedTransactions`, mined])).toEqual([`${prefix}minedTransactions`, mined]);
      expect(accepted('eth_subscribe', [`${prefix}minedTransactions`, {}])).toEqual([`${prefix}minedTransactions`, {}]);
    }
  });

  it('refuses a transactions filter with a bad address, a bad flag, an empty entry or over 1,000 addresses in all', () => {
    const addresses = (count: number) => Array.from({ length: count }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    expect(refused('eth_subscribe', ['alchemy_pendingTransactions', { fromAddress: [address, '0x1'] }])).toBe(
      'invalid params: [1] options.fromAddress[1] must be a 20-byte address: "0x" and 40 hex digits',
    );
    expect(refused('eth_subscribe', ['alchemy_pendingTransactions', { hashesOnly: 'true' }])).toBe(
      'invalid params: [1] options.hashesOnly must be true or false',
    );
    expect(refused('eth_subscribe', ['alchemy_pendingTransactions', true])).toBe(
      'invalid params: [1] options must be a filter {"fromAddress", "toAddress", "hashesOnly"} for "alchemy_pendingTransactions"',
    );
    expect(accepted('eth_subscribe', ['alchemy_pendingTransactions', { fromAddress: addresses(500), toAddress: addresses(500) }])).toHaveLength(2);
    expect(refused('eth_subscribe', ['alchemy_pendingTransactions', { fromAddress: addresses(500), toAddress: addresses(501) }])).toBe(
      'invalid params: [1] options has 1001 addresses; a transactions filter may name at most 1000 in total',
    );
    expect(refused('eth_subscribe', ['alchemy_minedTransactions', { addresses: [{ from: address }, {}] }])).toBe(
      'invalid params: [1] options.addresses[1] must have "from", "to" or both',
    );
    expect(refused('eth_subscribe', ['alchemy_minedTransactions', { addresses: [{ to: 'vitalik.eth' }] }])).toBe(
      'invalid params: [1] options.addresses[0].to must be a 20-byte address: "0x" and 40 hex digits',
    );
    expect(refused('eth_subscribe', ['alchemy_minedTransactions', { includeRemoved: 1 }])).toBe(
      'invalid params: [1] options.includeRemoved must be true or false',
    );
    const entries = (count: number) => addresses(count).map((from) => ({ from, to: address }));
    expect(accepted('eth_subscribe', ['alchemy_minedTransactions', { addresses: entries(500) }])).toHaveLength(2);
    expect(refused('eth_subscribe', ['alchemy_minedTransactions', { addresses: [...entries(500), { to: address }] }])).toBe(
      'invalid params: [1] options.addresses has 1001 addresses; a transactions filter may name at most 1000 in total',
    );
    expect(refused('eth_subscribe', ['alchemy_minedTransactions', ['0x1']])).toBe(
      'invalid params: [1] options must be a filter object (for "logs" and the transactions kinds) or true/false (for "newPendingTransactions")',
    );
  });

  it('refuses options that do not fit the kind', () => {
    expect(refused('eth_subscribe', ['newHeads', {}])).toBe('invalid params: [1] options is not accepted for "newHeads"');
    expect(refused('eth_subscribe', ['logs', true])).toBe('invalid params: [1] options must be a logs filter {"address", "topics"} for "logs"');
    expect(refused('eth_subscribe', ['newPendingTransactions', {}])).toBe('invalid params: [1] options must be true or false for "newPendingTransactions"');
    expect(refused('eth_subscribe', ['logs', { address: '0x1' }])).toMatch(/^invalid params: \[1\] options.address must be /);
  });
});
