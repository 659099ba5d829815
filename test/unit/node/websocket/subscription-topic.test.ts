import { describe, expect, it } from 'vitest';
import { subscriptionTopicOf } from '../../../../src/node/websocket/subscription-topic.ts';

// One upstream subscription per topic (docs/json-rpc.md#subscriptions): calls that ask for the same notifications
// share a key, calls that ask for different ones never do.

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const T1 = `0x${'1'.repeat(64)}`;
const T2 = `0x${'2'.repeat(64)}`;
const key = (...params: unknown[]) => subscriptionTopicOf(params).key;
/** The eth_subscribe params a node's own kind is sent upstream with. */
const upstreamParams = (...params: unknown[]) => {
  const topic = subscriptionTopicOf(params);
  if (topic.source !== 'upstream') throw new Error(`${String(params[0])} is not sent upstream as it is`);
  return topic.params;
};

describe('subscriptionTopicOf', () => {
  it('newHeads is one topic, sent upstream as it came', () => {
    expect(subscriptionTopicOf(['newHeads'])).toEqual({ source: 'upstream', key: '["newHeads"]', params: ['newHeads'] });
  });

  it('newPendingTransactions: hashes (no flag or false) and full transactions (true) are two topics', () => {
    expect(key('newPendingTransactions')).toBe(key('newPendingTransactions', false));
    expect(key('newPendingTransactions', true)).not.toBe(key('newPendingTransactions'));
    expect(upstreamParams('newPendingTransactions', true)).toEqual(['newPendingTransactions', true]);
  });

  it('logs: spellings of one filter share a topic', () => {
    const same = [
      key('logs', { address: [B.toUpperCase().replace('0X', '0x'), A], topics: [T1.toUpperCase().replace('0X', '0x'), null] }),
      key('logs', { address: [A, B, A], topics: [[T1]] }),
      key('logs', { address: [B, A], topics: [T1, null, null], fromBlock: 'latest' }),
    ];
    expect(new Set(same).size).toBe(1);
    expect(upstreamParams('logs', { address: [B, A], topics: [T1, null] })).toEqual(['logs', { address: [A, B], topics: [T1] }]);
  });

  it('logs: no filter, an empty one and wildcard-only ones are the same topic, sent with an empty filter', () => {
    const everything = [key('logs'), key('logs', {}), key('logs', { address: [], topics: [] }), key('logs', { topics: [null, [], [T1, null]] })];
    expect(new Set(everything).size).toBe(1);
    expect(upstreamParams('logs')).toEqual(['logs', {}]);
  });

  it('logs: filters that match different logs are different topics', () => {
    const keys = [
      key('logs', { address: A }),
      key('logs', { address: [A, B] }),
      key('logs', { topics: [T1] }),
      key('logs', { topics: [null, T1] }),
      key('logs', { topics: [[T1, T2]] }),
      key('logs', { address: A, topics: [T1] }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('an OR-list keeps its topics in one order', () => {
    expect(key('logs', { topics: [[T2, T1]] })).toBe(key('logs', { topics: [[T1, T2, T1]] }));
  });

  it('pending transactions: either name, address case, order, repeats and one-or-a-list are one topic; defaults filled in', () => {
    const same = [
      key('alchemy_pendingTransactions', { fromAddress: [B.toUpperCase().replace('0X', '0x'), A], toAddress: A }),
      key('crucible_pendingTransactions', { fromAddress: [A, B, A], toAddress: [A], hashesOnly: false }),
      key('alchemy_pendingTransactions', { toAddress: [A], fromAddress: [B, A], hashesOnly: null }),
    ];
    expect(new Set(same).size).toBe(1);
    expect(subscriptionTopicOf(['alchemy_pendingTransactions', { toAddress: A, hashesOnly: true }])).toEqual({
      source: 'pending',
      key: '["crucible_pendingTransactions",{"fromAddress":[],"toAddress":["0x00000000000000000000000000000000000000aa"],"hashesOnly":true}]',
      filter: { fromAddress: [], toAddress: [A], hashesOnly: true },
    });
    expect(key('alchemy_pendingTransactions')).toBe(key('alchemy_pendingTransactions', { fromAddress: [], toAddress: [] }));
  });

  it('pending transactions: filters that match different transactions, or send other shapes, are different topics', () => {
    const keys = [
      key('alchemy_pendingTransactions'),
      key('alchemy_pendingTransactions', { hashesOnly: true }),
      key('alchemy_pendingTransactions', { fromAddress: A }),
      key('alchemy_pendingTransactions', { toAddress: A }),
      key('alchemy_pendingTransactions', { fromAddress: A, toAddress: B }),
      key('alchemy_pendingTransactions', { fromAddress: B, toAddress: A }),
      key('newPendingTransactions', true),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('mined transactions: entries in any order, case or repeated are one topic; each flag makes another', () => {
    const same = [
      key('alchemy_minedTransactions', { addresses: [{ to: B }, { from: A, to: B.toUpperCase().replace('0X', '0x') }] }),
      key('crucible_minedTransactions', { addresses: [{ from: A, to: B }, { to: B }, { to: B }], includeRemoved: false, hashesOnly: null }),
    ];
    expect(new Set(same).size).toBe(1);
    expect(subscriptionTopicOf(['alchemy_minedTransactions', { addresses: [{ to: B }, { from: A, to: B }], includeRemoved: true }])).toMatchObject({
      source: 'mined',
      filter: { addresses: [{ from: A, to: B }, { to: B }], includeRemoved: true, hashesOnly: false },
    });
    const keys = [
      key('alchemy_minedTransactions'),
      key('alchemy_minedTransactions', { includeRemoved: true }),
      key('alchemy_minedTransactions', { hashesOnly: true }),
      key('alchemy_minedTransactions', { addresses: [{ from: A }] }),
      key('alchemy_minedTransactions', { addresses: [{ to: A }] }),
      key('alchemy_minedTransactions', { addresses: [{ from: A, to: B }] }),
      key('alchemy_minedTransactions', { addresses: [{ from: B, to: A }] }),
      key('alchemy_pendingTransactions', { fromAddress: A }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(key('alchemy_minedTransactions')).toBe(key('alchemy_minedTransactions', { addresses: [] }));
  });

  it('a kind the registry would have refused is a programming error', () => {
    expect(() => subscriptionTopicOf(['syncing'])).toThrow(/not validated/);
  });
});
