import { encodeAbiParameters, encodeErrorResult, numberToHex, stringToHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeTokenDecimals, decodeTokenText, firstWord, revertReason } from '../../../src/chain/token-answers.ts';

const abiString = (text: string) => encodeAbiParameters([{ type: 'string' }], [text]);
const abiBytes = (bytes: Hex) => encodeAbiParameters([{ type: 'bytes' }], [bytes]);
const uint = (value: bigint) => numberToHex(value, { size: 32 });

describe('decodeTokenText', () => {
  it('decodes an ABI string and a bytes32', () => {
    expect(decodeTokenText(abiString('Wrapped Ether'))).toBe('Wrapped Ether');
    expect(decodeTokenText(stringToHex('MKR', { size: 32 }))).toBe('MKR');
    expect(decodeTokenText(stringToHex('Maker', { size: 32 }))).toBe('Maker');
  });

  it('trims NULs at both ends, not inside', () => {
    expect(decodeTokenText(abiString('\0\0USDC\0\0\0'))).toBe('USDC');
    expect(decodeTokenText(`0x0000${stringToHex('DAI').slice(2).padEnd(60, '0')}`)).toBe('DAI');
    expect(decodeTokenText(abiString('A\0B'))).toBe('A\0B');
  });

  it('caps at 255 characters, counting characters rather than UTF-16 units', () => {
    expect(decodeTokenText(abiString('a'.repeat(300)))).toBe('a'.repeat(255));
    const foxes = decodeTokenText(abiString('🦊'.repeat(300)))!;
    expect(Array.from(foxes)).toHaveLength(255);
    expect(foxes).toBe('🦊'.repeat(255));
  });

  it('is null when the answer is empty, all NULs, not UTF-8, or neither shape', () => {
    expect(decodeTokenText('0x')).toBeNull();
    expect(decodeTokenText(abiString(''))).toBeNull();
    expect(decodeTokenText(`0x${'00'.repeat(32)}`)).toBeNull();
    expect(decodeTokenText(`0x${'ff'.repeat(32)}`)).toBeNull();
    expect(decodeTokenText(abiBytes('0xfffe'))).toBeNull();
    expect(decodeTokenText('0x1234567890')).toBeNull();
    // An offset pointing past the data.
    expect(decodeTokenText(`${uint(4096n)}${uint(5n).slice(2)}`)).toBeNull();
  });
});

describe('decodeTokenDecimals', () => {
  it('reads uint8 and uint256 answers up to 78', () => {
    expect(decodeTokenDecimals(uint(6n))).toBe(6);
    expect(decodeTokenDecimals(uint(18n))).toBe(18);
    expect(decodeTokenDecimals(uint(0n))).toBe(0);
    expect(decodeTokenDecimals(uint(78n))).toBe(78);
  });

  it('is null above 78, when missing or short', () => {
    expect(decodeTokenDecimals(uint(79n))).toBeNull();
    expect(decodeTokenDecimals(uint(2n ** 256n - 1n))).toBeNull();
    expect(decodeTokenDecimals('0x')).toBeNull();
    expect(decodeTokenDecimals('0x12')).toBeNull();
  });

  it('reads the first word of a longer answer, as abi.decode does', () => {
    expect(decodeTokenDecimals(`${uint(8n)}${uint(99n).slice(2)}`)).toBe(8);
  });
});

describe('firstWord', () => {
  it('is the first 32 bytes, lower-cased, or null when shorter', () => {
    expect(firstWord(`0x${'AB'.repeat(32)}ff`)).toBe(`0x${'ab'.repeat(32)}`);
    expect(firstWord(`0x${'00'.repeat(31)}`)).toBeNull();
  });
});

describe('revertReason', () => {
  it('gives the text of Error(string), the selector of a custom error, and null for a bare revert', () => {
    const errorAbi = [
      { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
      { type: 'error', name: 'BalanceUnavailable', inputs: [{ name: 'account', type: 'address' }] },
    ] as const;
    expect(revertReason(encodeErrorResult({ abi: errorAbi, errorName: 'Error', args: ['paused'] }))).toBe('paused');
    const custom = encodeErrorResult({ abi: errorAbi, errorName: 'BalanceUnavailable', args: ['0x00000000000000000000000000000000000000ff'] });
    expect(revertReason(custom)).toBe(`error ${custom.slice(0, 10)}`);
    expect(revertReason('0x')).toBeNull();
  });
});
