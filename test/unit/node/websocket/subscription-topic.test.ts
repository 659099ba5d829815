import { describe, expect, it } from 'vitest';
import { subscriptionTopicOf } from '../../../../src/node/websocket/subscription-topic.ts';

// One upstream subscription per topic (docs/json-rpc.md#subscriptions): calls that ask for the same notifications
// share a key, calls that ask for different ones never do.

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const T1 = `0x${'1'.repeat(64)}`;
const T2 = `0x${'2'.repeat(64)}`;
const key = (...params: unknown[]) => subscriptionTopicOf(params).key;

describe('subscriptionTopicOf', () => {
  it('newHeads is one topic, sent upstream as it came', () => {
    expect(subscriptionTopicOf(['newHeads'])).toEqual({ key: '["newHeads"]', params: ['newHeads'] });
  });

  it('newPendingTransactions: hashes (no flag or false) and full transactions (true) are two topics', () => {
    expect(key('newPendingTransactions')).toBe(key('newPendingTransactions', false));
    expect(key('newPendingTransactions', true)).not.toBe(key('newPendingTransactions'));
    expect(subscriptionTopicOf(['newPendingTransactions', true]).params).toEqual(['newPendingTransactions', true]);
  });

  it('logs: spellings of one filter share a topic', () => {
    const same = [
      key('logs', { address: [B.toUpperCase().replace('0X', '0x'), A], topics: [T1.toUpperCase().replace('0X', '0x'), null] }),
      key('logs', { address: [A, B, A], topics: [[T1]] }),
      key('logs', { address: [B, A], topics: [T1, null, null], fromBlock: 'latest' }),
    ];
    expect(new Set(same).size).toBe(1);
    expect(subscriptionTopicOf(['logs', { address: [B, A], topics: [T1, null] }]).params).toEqual(['logs', { address: [A, B], topics: [T1] }]);
  });

  it('logs: no filter, an empty one and wildcard-only ones are the same topic, sent with an empty filter', () => {
    const everything = [key('logs'), key('logs', {}), key('logs', { address: [], topics: [] }), key('logs', { topics: [null, [], [T1, null]] })];
    expect(new Set(everything).size).toBe(1);
    expect(subscriptionTopicOf(['logs']).params).toEqual(['logs', {}]);
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

  it('a kind the registry would have refused is a programming error', () => {
    expect(() => subscriptionTopicOf(['syncing'])).toThrow(/not validated/);
  });
});
