import { describe, expect, it } from 'vitest';
import { appInputParser, parseExpectedVersion, parseRotateOptions, parseState } from '../../../src/apps/input.ts';

const parse = appInputParser(['base-sepolia', 'ethereum-sepolia']);

/** Matches the AppInputError that names this field, its message matching. */
function inputError(field: string, message: RegExp | string = /./) {
  return expect.objectContaining({ name: 'AppInputError', field, message: typeof message === 'string' ? message : expect.stringMatching(message) });
}

describe('a new app', () => {
  it('needs only a name, and takes the defaults for the rest', () => {
    expect(parse.newApp({ name: '  My dapp ' })).toEqual({
      name: 'My dapp',
      ownerId: null,
      allowedDomains: [],
      allowedNetworks: [],
      computeUnitsPerSecond: 330,
      monthlyComputeUnitQuota: 300_000_000,
    });
  });

  it('lowercases and deduplicates domains, keeps wildcards, and spells international names in punycode', () => {
    const app = parse.newApp({ name: 'x', allowedDomains: ['Example.COM', 'example.com', '*.Example.org', 'bücher.de'] });
    expect(app.allowedDomains).toEqual(['example.com', '*.example.org', 'xn--bcher-kva.de']);
  });

  it('takes known networks, an unlimited quota and other limits', () => {
    const app = parse.newApp({ name: 'x', allowedNetworks: ['base-sepolia', 'base-sepolia'], computeUnitsPerSecond: 1000, monthlyComputeUnitQuota: null });
    expect(app).toMatchObject({ allowedNetworks: ['base-sepolia'], computeUnitsPerSecond: 1000, monthlyComputeUnitQuota: null });
  });

  it.each([
    [{ name: '' }, 'name', /^name must be 1 to 64 characters/],
    [{ name: 'x'.repeat(65) }, 'name', /^name must be 1 to 64 characters/],
    [{ name: 'tab\there' }, 'name', /without control characters/],
    [{ name: 42 }, 'name', /^name must be/],
    [{}, 'name', /^name must be/],
    [{ name: 'x', allowedDomains: ['https://example.com'] }, 'allowedDomains', /^allowedDomains has "https:\/\/example.com", which is neither a host/],
    [{ name: 'x', allowedDomains: ['example.com:8080'] }, 'allowedDomains', /which is neither a host/],
    [{ name: 'x', allowedDomains: ['*'] }, 'allowedDomains', /which is neither a host/],
    [{ name: 'x', allowedDomains: 'example.com' }, 'allowedDomains', /^allowedDomains must be a list/],
    [
      { name: 'x', allowedNetworks: ['mainnet'] },
      'allowedNetworks',
      /^allowedNetworks has "mainnet", which is not a network id \(known: base-sepolia, ethereum-sepolia\)\.$/,
    ],
    [{ name: 'x', computeUnitsPerSecond: 0 }, 'computeUnitsPerSecond', /^computeUnitsPerSecond must be a whole number/],
    [{ name: 'x', computeUnitsPerSecond: 1.5 }, 'computeUnitsPerSecond', /^computeUnitsPerSecond must be/],
    [{ name: 'x', monthlyComputeUnitQuota: -1 }, 'monthlyComputeUnitQuota', /^monthlyComputeUnitQuota must be/],
    [{ name: 'x', monthlyComputeUnitQuota: 'unlimited' }, 'monthlyComputeUnitQuota', /or null for unlimited\.$/],
    [{ name: 'x', state: 'disabled' }, 'state', /^state is not a setting of an app\.$/],
    [null, 'input', /^input must be an object\.$/],
  ])('refuses %o naming %s', (input, field, message) => {
    expect(() => parse.newApp(input)).toThrow(inputError(field, message));
  });
});

describe('a patch', () => {
  it('keeps only the fields given', () => {
    expect(parse.patch({ name: 'Renamed', monthlyComputeUnitQuota: null })).toEqual({ name: 'Renamed', monthlyComputeUnitQuota: null });
  });

  it('refuses an empty patch, the owner and unknown fields', () => {
    expect(() => parse.patch({})).toThrow(inputError('patch', /^patch names no field to change \(name, allowedDomains/));
    expect(() => parse.patch({ ownerId: 'acct_1' })).toThrow(inputError('ownerId'));
    expect(() => parse.patch({ allowedNetworks: ['nowhere'] })).toThrow(inputError('allowedNetworks'));
  });
});

describe('rotation, state and version', () => {
  it('reads a grace period of 0 to 30 days, 0 by default', () => {
    expect(parseRotateOptions(undefined)).toEqual({ graceSeconds: 0 });
    expect(parseRotateOptions({ graceSeconds: 3600 })).toEqual({ graceSeconds: 3600 });
    expect(() => parseRotateOptions({ graceSeconds: 30 * 86_400 + 1 })).toThrow(inputError('graceSeconds', /^graceSeconds must be a whole number of seconds/));
    expect(() => parseRotateOptions({ graceSeconds: -1 })).toThrow(inputError('graceSeconds'));
  });

  it('knows the two states and whole versions', () => {
    expect(parseState('disabled')).toBe('disabled');
    expect(() => parseState('paused')).toThrow(inputError('state', 'state must be "active" or "disabled".'));
    expect(parseExpectedVersion(undefined)).toBeUndefined();
    expect(parseExpectedVersion(3)).toBe(3);
    expect(() => parseExpectedVersion('3')).toThrow(inputError('expectedVersion'));
  });
});
