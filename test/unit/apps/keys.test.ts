import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoApp, isDemoKey } from '../../../src/apps/demo.ts';
import { hasAppKeyShape, hashAppKey, newAppId, newAppKey, openSealedAppKey, sameKeyHash, sealAppKey } from '../../../src/apps/keys.ts';

describe('app keys', () => {
  it('are 32 characters of [A-Za-z0-9_-], different each time', () => {
    const keys = Array.from({ length: 100 }, newAppKey);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set(keys).size).toBe(100);
    expect(keys.every(hasAppKeyShape)).toBe(true);
    expect(hasAppKeyShape('demo')).toBe(false);
    expect(hasAppKeyShape(`${keys[0]}x`)).toBe(false);
  });

  it('are looked up by SHA-256, compared whole', () => {
    const key = newAppKey();
    expect(hashAppKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(sameKeyHash(hashAppKey(key), hashAppKey(key))).toBe(true);
    expect(sameKeyHash(hashAppKey(key), hashAppKey(newAppKey()))).toBe(false);
    expect(sameKeyHash(hashAppKey(key), hashAppKey(key).slice(0, 62))).toBe(false);
  });

  it('are sealed so that only the same secret and app id open them', () => {
    const key = newAppKey();
    const secret = randomBytes(32);
    const sealed = sealAppKey(key, 'app_1', secret);
    expect(sealed).not.toContain(key);
    expect(sealAppKey(key, 'app_1', secret)).not.toBe(sealed);
    expect(openSealedAppKey(sealed, 'app_1', secret)).toBe(key);
    expect(openSealedAppKey(sealed, 'app_2', secret)).toBeNull();
    expect(openSealedAppKey(sealed, 'app_1', randomBytes(32))).toBeNull();
    expect(openSealedAppKey(`${sealed.slice(0, -2)}AA`, 'app_1', secret)).toBeNull();
    expect(openSealedAppKey('v2.abc', 'app_1', secret)).toBeNull();
  });

  it('belong to apps named app_ and 16 hex digits', () => {
    expect(newAppId()).toMatch(/^app_[0-9a-f]{16}$/);
  });
});

describe('the demo key', () => {
  it('is demo or docs-demo, an app on every network from any origin', () => {
    expect(isDemoKey('demo')).toBe(true);
    expect(isDemoKey('docs-demo')).toBe(true);
    expect(isDemoKey('Demo')).toBe(false);
    expect(isDemoKey(newAppKey())).toBe(false);
    expect(demoApp).toMatchObject({ id: 'demo', allowedDomains: [], allowedNetworks: [], state: 'active' });
    expect(Object.isFrozen(demoApp)).toBe(true);
  });
});
