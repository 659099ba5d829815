import { describe, expect, it } from 'vitest';
import { minedFilterOf, minedMatcher, pendingFilterOf, pendingMatcher } from '../../../../src/node/websocket/transaction-filters.ts';

// The matching rules of the transactions subscriptions (docs/json-rpc.md#subscriptions): pending
// matches a sender OR a recipient; mined matches any {from?, to?} entry, an entry needing each
// address it gives; no filter matches everything; addresses compare case-insensitively.

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const C = '0x00000000000000000000000000000000000000cc';
const checksummed = (address: string) => address.replace(/[a-f]/g, (letter) => letter.toUpperCase()).replace(/^0X/, '0x');
const tx = (from: string, to: string | null) => ({ from, to });

describe('pending transactions', () => {
  it('no filter matches every transaction, contract creations too', () => {
    const matches = pendingMatcher(pendingFilterOf(undefined));
    expect([tx(A, B), tx(C, null)].map(matches)).toEqual([true, true]);
  });

  it('fromAddress alone matches the senders, toAddress alone the recipients', () => {
    expect([tx(A, B), tx(B, A), tx(C, null)].map(pendingMatcher(pendingFilterOf({ fromAddress: checksummed(A) })))).toEqual([true, false, false]);
    expect([tx(A, B), tx(B, A), tx(C, null)].map(pendingMatcher(pendingFilterOf({ toAddress: [checksummed(A), C] })))).toEqual([false, true, false]);
  });

  it('both lists: a transaction from a listed sender or to a listed recipient', () => {
    const matches = pendingMatcher(pendingFilterOf({ fromAddress: A, toAddress: B }));
    expect([tx(A, C), tx(C, B), tx(B, A), tx(C, null)].map(matches)).toEqual([true, true, false, false]);
  });
});

describe('mined transactions', () => {
  it('no entries match every transaction', () => {
    expect([tx(A, B), tx(C, null)].map(minedMatcher(minedFilterOf({ addresses: [] })))).toEqual([true, true]);
  });

  it('an entry with from and to needs both; entries are alternatives', () => {
    const matches = minedMatcher(minedFilterOf({ addresses: [{ from: checksummed(A), to: checksummed(B) }, { to: C }] }));
    expect([tx(A, B), tx(A, C), tx(B, C), tx(A, A), tx(B, B), tx(C, A), tx(A, null)].map(matches)).toEqual([true, true, true, false, false, false, false]);
  });

  it('a from-only entry matches contract creations of that sender', () => {
    expect([tx(A, null), tx(B, null)].map(minedMatcher(minedFilterOf({ addresses: [{ from: A }] })))).toEqual([true, false]);
  });
});
