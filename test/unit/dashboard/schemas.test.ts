import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { inputFailure } from '../../../src/dashboard/operation-context.ts';
import { AppChange, Credentials, KeyRotation, NewApp, PasswordChange, UsageQuery } from '../../../src/dashboard/schemas.ts';

// The dashboard's input schemas (docs/dashboard.md#endpoints), shared by the pages and the server: what they accept,
// how they normalize, and which field and sentence a refusal names.

/** The failure the server answers for this body. */
const refusal = (schema: z.ZodType, body: unknown) => {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error('accepted');
  return inputFailure({ part: 'body', reason: 'invalid', issues: parsed.error.issues, input: body });
};

describe('credentials', () => {
  it('trim and lowercase the email', () => {
    expect(Credentials.parse({ email: '  Ada@Example.COM ', password: 'x'.repeat(10) })).toEqual({ email: 'ada@example.com', password: 'x'.repeat(10) });
  });

  it('name the email or the password with a sentence', () => {
    expect(refusal(Credentials, { email: 'not an email', password: 'x'.repeat(10) })).toEqual({
      code: 'invalid_input',
      field: 'email',
      message: 'Enter an email address such as ada@example.com, of at most 254 characters.',
    });
    expect(refusal(Credentials, { email: `${'a'.repeat(250)}@example.com`, password: 'x'.repeat(10) }).field).toBe('email');
    expect(refusal(Credentials, { email: 'ada@example.com', password: 'x'.repeat(9) })).toEqual({
      code: 'invalid_input',
      field: 'password',
      message: 'Use 10 to 200 characters.',
    });
    expect(refusal(Credentials, { email: 'ada@example.com', password: 'x'.repeat(201) }).field).toBe('password');
    expect(Credentials.safeParse({ email: 'ada@example.com', password: 'x'.repeat(200) }).success).toBe(true);
  });

  it('refuse another field by its name, and a body that is no object', () => {
    expect(refusal(Credentials, { email: 'ada@example.com', password: 'x'.repeat(10), admin: true })).toEqual({
      code: 'invalid_input',
      field: 'admin',
      message: 'There is no field admin here.',
    });
    expect(refusal(Credentials, 'ada')).toEqual({ code: 'invalid_input', message: 'The request body must be a JSON object.' });
  });

  it('want the current password for a change, and a new one of 10 to 200 characters', () => {
    expect(refusal(PasswordChange, { currentPassword: '', newPassword: 'x'.repeat(10) }).field).toBe('currentPassword');
    expect(refusal(PasswordChange, { currentPassword: 'old', newPassword: 'short' }).field).toBe('newPassword');
  });
});

describe('apps', () => {
  const app = { name: 'My dapp', allowedNetworks: ['ethereum-sepolia'], allowedDomains: ['example.com', '*.example.org', 'bücher.de'] };

  it('take a name, networks and domains (a wildcard and an internationalized name too)', () => {
    expect(NewApp.parse({ ...app, name: '  My dapp ' })).toEqual(app);
  });

  it('name the field at fault', () => {
    expect(refusal(NewApp, { ...app, name: '' }).field).toBe('name');
    expect(refusal(NewApp, { ...app, name: 'a\nb' }).field).toBe('name');
    expect(refusal(NewApp, { ...app, allowedDomains: ['https://example.com/path'] })).toMatchObject({
      field: 'allowedDomains',
      message: expect.stringMatching(/host such as example\.com/),
    });
    expect(refusal(NewApp, { ...app, allowedNetworks: ['Not A Network'] }).field).toBe('allowedNetworks');
    expect(refusal(NewApp, { name: 'x', allowedNetworks: null }).field).toBe('allowedNetworks');
  });

  it('default networks and domains to none listed: every network, any origin', () => {
    expect(NewApp.parse({ name: 'x' })).toEqual({ name: 'x', allowedNetworks: [], allowedDomains: [] });
    expect(NewApp.parse({ name: 'x', allowedDomains: ['example.com'] })).toEqual({ name: 'x', allowedNetworks: [], allowedDomains: ['example.com'] });
  });

  it('change with the version read and at least one field', () => {
    expect(AppChange.parse({ version: 3, state: 'disabled' })).toEqual({ version: 3, state: 'disabled' });
    expect(refusal(AppChange, { name: 'x' }).field).toBe('version');
    expect(refusal(AppChange, { version: 3 })).toEqual({
      code: 'invalid_input',
      message: 'Change at least one of name, allowedNetworks, allowedDomains or state.',
    });
    expect(refusal(AppChange, { version: 3, state: 'paused' }).field).toBe('state');
    expect(refusal(AppChange, { version: 3, computeUnitsPerSecond: 1e6 }).field).toBe('computeUnitsPerSecond');
  });

  it('rotate with a grace period of up to 30 days', () => {
    expect(KeyRotation.parse({})).toEqual({});
    expect(KeyRotation.parse({ graceSeconds: 2_592_000 })).toEqual({ graceSeconds: 2_592_000 });
    expect(refusal(KeyRotation, { graceSeconds: 2_592_001 }).field).toBe('graceSeconds');
    expect(refusal(KeyRotation, { graceSeconds: 1.5 }).field).toBe('graceSeconds');
  });

  it('read usage over an hour, a day (the default) or a month', () => {
    expect(UsageQuery.parse({})).toEqual({ range: 'day' });
    expect(UsageQuery.safeParse({ range: 'week' }).success).toBe(false);
  });
});

describe('requests that cannot be read', () => {
  it('are answered without a field', () => {
    expect(inputFailure({ part: 'body', reason: 'unparseable', issues: [] })).toEqual({
      code: 'invalid_input',
      message: 'The request body could not be read as JSON.',
    });
    expect(inputFailure({ part: 'body', reason: 'unsupported_media_type', issues: [] }).message).toBe('The request body must be sent as application/json.');
  });
});
