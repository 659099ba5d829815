import type { Address, Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { withChanges } from '../../../src/simulation/bundle-state.ts';
import { type CallFrame, executionEvents, frameError } from '../../../src/simulation/call-frames.ts';
import { durationMs } from '../../../src/node/rpc/schemas/tracing.ts';

// The order a simulation reads a transaction's effects in, the state a bundle's next transaction
// runs on, and the tracer timeout the gateway bounds: pure rules, checked on frames and diffs
// written here by hand in the shape geth's and anvil's tracers give.

const a = '0x00000000000000000000000000000000000000aa' as Address;
const b = '0x00000000000000000000000000000000000000bb' as Address;
const c = '0x00000000000000000000000000000000000000cc' as Address;
const log = (topic: string, position: number) => ({ address: c, topics: [topic as Hex], data: '0x' as Hex, position: `0x${position.toString(16)}` as Hex });

describe('executionEvents', () => {
  it('takes value as a call enters, then its logs and inner calls in the order they ran (a log after the calls before its position)', () => {
    const frame: CallFrame = {
      type: 'CALL',
      from: a,
      to: c,
      value: '0x5',
      logs: [log('0x02', 1), log('0x01', 0), log('0x03', 2)],
      calls: [
        { type: 'CALL', from: c, to: b, value: '0x2' },
        { type: 'STATICCALL', from: c, to: b },
      ],
    };
    const order = executionEvents(frame).map((event) => (event.kind === 'value' ? `value ${event.to} ${event.value}` : `log ${event.log.topics[0]}`));
    expect(order).toEqual([`value ${c} 5`, 'log 0x01', `value ${b} 2`, 'log 0x02', 'log 0x03']);
  });

  it('passes over a call that failed and everything inside it; a delegate call moves no value of its own', () => {
    const frame: CallFrame = {
      type: 'CALL',
      from: a,
      to: c,
      calls: [
        {
          type: 'CALL',
          from: c,
          to: b,
          value: '0x7',
          error: 'execution reverted',
          logs: [log('0x09', 0)],
          calls: [{ type: 'CALL', from: b, to: a, value: '0x1' }],
        },
        { type: 'DELEGATECALL', from: c, to: b, value: '0x3' },
      ],
    };
    expect(executionEvents(frame)).toEqual([]);
  });

  it('names a failed transaction’s error with its revert reason and data', () => {
    expect(frameError({ type: 'CALL', from: a, error: 'execution reverted', revertReason: 'not yours', output: '0x08c379a0' })).toEqual({
      message: 'execution reverted: not yours',
      data: '0x08c379a0',
    });
    expect(frameError({ type: 'CALL', from: a })).toBeNull();
  });
});

describe('withChanges: the state a bundle’s next transaction runs on', () => {
  const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;

  it('lays balances, nonces, code and changed slots over what came before, a slot left out of post being zero', () => {
    const first = withChanges(
      {},
      {
        pre: { [a]: { balance: '0x10', nonce: 1, storage: { [slot(2)]: slot(4) } }, [b]: { balance: '0x0' } },
        post: { [a]: { balance: '0x8', nonce: 2, storage: { [slot(0)]: slot(7) } }, [b]: { balance: '0x8', code: '0x6000' } },
      },
    );
    expect(first).toEqual({
      [a]: { balance: '0x8', nonce: '0x2', stateDiff: { [slot(0)]: slot(7), [slot(2)]: slot(0) } },
      [b]: { balance: '0x8', code: '0x6000' },
    });
    const second = withChanges(first, { pre: { [a]: { nonce: 2 } }, post: { [a]: { nonce: 3, storage: { [slot(5)]: slot(1) } } } });
    expect(second[a]).toEqual({ balance: '0x8', nonce: '0x3', stateDiff: { [slot(0)]: slot(7), [slot(2)]: slot(0), [slot(5)]: slot(1) } });
    expect(first[a]!.nonce).toBe('0x2');
  });

  it('empties an account that is in pre only (it self-destructed)', () => {
    expect(withChanges({}, { pre: { [c]: { balance: '0x1', code: '0x00' } }, post: {} })).toEqual({
      [c]: { balance: '0x0', nonce: '0x0', code: '0x', state: {} },
    });
  });
});

describe('durationMs', () => {
  it('reads Go durations as geth does', () => {
    expect(durationMs('10s')).toBe(10_000);
    expect(durationMs('1m30s')).toBe(90_000);
    expect(durationMs('1h')).toBe(3_600_000);
    expect(durationMs('250ms')).toBe(250);
    expect(durationMs('1.5s')).toBe(1_500);
  });
});
