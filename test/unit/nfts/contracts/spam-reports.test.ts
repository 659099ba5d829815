import { describe, expect, it } from 'vitest';
import { reporterOf } from '../../../../src/nfts/contracts/spam-reports.ts';

// Who a spam report is from (docs/nft-data.md#spam-reports): an app by its id whatever its address;
// the demo key by the client's address, IPv6 by its prefix, so one holder of a /64 is one reporter.

describe('reporterOf', () => {
  it('names an app by its id, the demo key by the client address', () => {
    expect(reporterOf({ appId: 'app_1', clientIp: '203.0.113.7' }, 64)).toBe('app:app_1');
    expect(reporterOf({ appId: null, clientIp: '203.0.113.7' }, 64)).toBe('demo:203.0.113.7');
    expect(reporterOf({ appId: null, clientIp: null }, 64)).toBe('demo:unknown');
  });

  it('counts the addresses of one IPv6 prefix as one reporter', () => {
    const one = reporterOf({ appId: null, clientIp: '2001:db8:0:1::1' }, 64);
    expect(reporterOf({ appId: null, clientIp: '2001:db8:0:1:ffff::9' }, 64)).toBe(one);
    expect(reporterOf({ appId: null, clientIp: '2001:db8:0:2::1' }, 64)).not.toBe(one);
  });
});
