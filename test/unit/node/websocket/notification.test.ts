import { describe, expect, it } from 'vitest';
import { newSubscriptionId, notificationHead, notificationMessage } from '../../../../src/node/websocket/notification.ts';

describe('subscription ids and notifications', () => {
  it('ids are 0x and 32 hex digits, different every time', () => {
    const ids = Array.from({ length: 1000 }, newSubscriptionId);
    for (const id of ids) expect(id).toMatch(/^0x[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a notification is the eth_subscription message geth sends, with the result as given', () => {
    const result = { number: '0x1b4', hash: `0x${'ab'.repeat(32)}`, transactions: [] };
    const head = notificationHead('0x0123456789abcdef0123456789abcdef');
    const message = notificationMessage(head, Buffer.from(JSON.stringify(result)));
    expect(JSON.parse(message.toString('utf8'))).toEqual({
      jsonrpc: '2.0',
      method: 'eth_subscription',
      params: { subscription: '0x0123456789abcdef0123456789abcdef', result },
    });
    expect(JSON.parse(notificationMessage(notificationHead('0x01'), Buffer.from('"0xfeed"')).toString()).params.result).toBe('0xfeed');
    // One head serves every event of its subscription.
    expect(JSON.parse(notificationMessage(head, Buffer.from('"0xbeef"')).toString()).params).toEqual({
      subscription: '0x0123456789abcdef0123456789abcdef',
      result: '0xbeef',
    });
    // Text beyond ASCII arrives as it was sent (a token name in a log's decoded form, say).
    expect(JSON.parse(notificationMessage(notificationHead('0x01'), Buffer.from('{"name":"トークン ✓"}')).toString()).params.result).toEqual({
      name: 'トークン ✓',
    });
  });
});
