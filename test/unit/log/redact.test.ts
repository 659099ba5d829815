import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServerLogger } from '../../../src/server/log.ts';
import { redactUrls } from '../../../src/log/redact.ts';

describe('redactUrls', () => {
  it.each([
    ['https://user:pass@host.example/path/KEY', 'https://host.example'],
    ['redis://:secret@cache.example:6379/0', 'redis://cache.example:6379'],
    ['https://rpc.example/v2/SECRETKEY?apikey=SECRET', 'https://rpc.example'],
    ['wss://eth.example/ws/SECRETKEY', 'wss://eth.example'],
    ['postgres://app:secret@db.example/app', 'postgres://db.example'],
  ])('cuts %s to its origin', (url, origin) => {
    expect(redactUrls(`failed at ${url} (retrying)`)).toBe(`failed at ${origin} (retrying)`);
  });

  it('keeps file: URLs, the stack frames of ES modules', () => {
    const frame = '    at answer (file:///srv/crucible/src/server/server.ts:49:31)';
    expect(redactUrls(frame)).toBe(frame);
  });

  it('hides a URL that does not parse whole', () => {
    expect(redactUrls('at https://user:secret@[bad/KEY')).toBe('at [url]');
  });
});

describe('server error log', () => {
  const errorLine = (fields: Record<string, unknown>) => {
    const lines: string[] = [];
    const stderr = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    createServerLogger({ requests: false, stderr }).error('failed at https://u:SECRET@a.example/x', fields);
    return lines.join('');
  };

  it('cuts URLs in the message and in every string field, however deep', () => {
    const line = errorLine({ error: 'Error: at redis://:SECRET@cache.example:6379', nested: { urls: ['https://rpc.example/v2/SECRET'] }, count: 3 });
    expect(line).not.toContain('SECRET');
    expect(JSON.parse(line)).toMatchObject({
      msg: 'failed at https://a.example',
      error: 'Error: at redis://cache.example:6379',
      nested: { urls: ['https://rpc.example'] },
      count: 3,
    });
  });
});
