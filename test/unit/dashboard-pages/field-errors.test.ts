import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, fieldOfPath, linesOf } from '../../../src/components/dashboard/field-errors.ts';
import { Credentials, NewApp } from '../../../src/dashboard/schemas.ts';

// A form's refusals, from the backend's own schemas, each under the field it belongs to and in the
// page's words for that field.

const appFields = new Set(['name', 'allowedNetworks', 'allowedDomains']);
const words = { name: 'Give the app a name.', allowedDomains: 'Each line must be a host.' };

describe('fieldOfPath', () => {
  it('names the longest prefix of the path that the form has', () => {
    const fields = new Set(['url', 'filters.contractAddresses', 'filters.tokenIds']);
    expect(fieldOfPath(['filters', 'tokenIds', 3], fields)).toBe('filters.tokenIds');
    expect(fieldOfPath('filters.contractAddresses', fields)).toBe('filters.contractAddresses');
    expect(fieldOfPath(['url'], fields)).toBe('url');
    expect(fieldOfPath(['type'], fields)).toBeNull();
    expect(fieldOfPath([], fields)).toBeNull();
  });
});

describe('fieldErrorsOf', () => {
  it('gives each field the backend’s schema refuses one error, in the form’s words where it has them', () => {
    const parsed = NewApp.safeParse({ name: '', allowedNetworks: ['Not A Network'], allowedDomains: ['example.com', 'bad host!', 'also bad!'] });
    expect(parsed.success).toBe(false);
    const { fieldErrors, other } = fieldErrorsOf(parsed.error!.issues, appFields, words);
    expect(fieldErrors).toEqual([
      { field: 'name', message: words.name },
      { field: 'allowedNetworks', message: 'Choose networks from the list.' },
      { field: 'allowedDomains', message: words.allowedDomains },
    ]);
    expect(other).toEqual([]);
  });

  it('keeps what names no field of the form, so nothing refused goes unsaid', () => {
    const parsed = Credentials.safeParse({ email: 'ada@example.com', password: 'long enough password', extra: true });
    const { fieldErrors, other } = fieldErrorsOf(parsed.error!.issues, new Set(['email', 'password']), {});
    expect(fieldErrors).toEqual([]);
    expect(other.length).toBe(1);
  });

  it('passes what the schema accepts', () => {
    expect(NewApp.safeParse({ name: 'Shop', allowedNetworks: [], allowedDomains: ['localhost', '*.example.com'] }).success).toBe(true);
  });
});

describe('linesOf', () => {
  it('gives a textarea’s non-empty lines, trimmed', () => {
    expect(linesOf(' example.com \r\n\n*.example.org\n  \n')).toEqual(['example.com', '*.example.org']);
    expect(linesOf('')).toEqual([]);
  });
});
