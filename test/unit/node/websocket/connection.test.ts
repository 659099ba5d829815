import { describe, expect, it } from 'vitest';
import { closeReason } from '../../../../src/node/websocket/connection.ts';

describe('closeReason', () => {
  it('keeps a short reason and cuts a long one to the 123 bytes a close frame holds', () => {
    expect(closeReason('Invalid API key')).toBe('Invalid API key');
    const long = closeReason(`Forbidden: origin https://${'ü'.repeat(200)}.example is not allowed`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(123);
    expect(long.endsWith('…')).toBe(true);
    expect(long.startsWith('Forbidden: origin https://üü')).toBe(true);
  });
});
