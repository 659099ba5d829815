import { describe, expect, it } from 'vitest';
import { usageWindow } from '../../../src/dashboard/usage.ts';
import { appView } from '../../../src/dashboard/views.ts';
import { demoApp } from '../../../src/apps/demo.ts';

// What the dashboard reads and shows: the usage ranges' buckets, and an app's endpoints.

describe('usage windows', () => {
  const now = Date.parse('2026-03-15T10:42:30.500Z');

  it('end with the bucket in progress: 60 minutes, 24 hours, 30 UTC days', () => {
    expect(usageWindow('hour', now)).toEqual({ bucket: 'minute', from: Date.parse('2026-03-15T09:43:00Z'), to: Date.parse('2026-03-15T10:43:00Z') });
    expect(usageWindow('day', now)).toEqual({ bucket: 'hour', from: Date.parse('2026-03-14T11:00:00Z'), to: Date.parse('2026-03-15T11:00:00Z') });
    expect(usageWindow('month', now)).toEqual({ bucket: 'day', from: Date.parse('2026-02-14T00:00:00Z'), to: Date.parse('2026-03-16T00:00:00Z') });
  });

  it('take a time on a boundary into the bucket it starts', () => {
    const boundary = Date.parse('2026-03-15T10:00:00Z');
    expect(usageWindow('day', boundary).to).toBe(Date.parse('2026-03-15T11:00:00Z'));
  });
});

describe('the app view', () => {
  const networks = [
    { id: 'ethereum-sepolia', name: 'Ethereum Sepolia', nodeUrl: 'http://localhost:4321/node/ethereum-sepolia' },
    { id: 'base-sepolia', name: 'Base Sepolia', nodeUrl: 'http://localhost:4321/node/base-sepolia' },
  ];

  it('lists {node_url}/v2/ of every network when the app names none, else of the ones it names', () => {
    expect(appView(demoApp, networks).endpoints).toEqual([
      { network: 'ethereum-sepolia', url: 'http://localhost:4321/node/ethereum-sepolia/v2/' },
      { network: 'base-sepolia', url: 'http://localhost:4321/node/base-sepolia/v2/' },
    ]);
    const limited = appView({ ...demoApp, allowedNetworks: ['base-sepolia'], previousKeyExpiresAt: Date.parse('2026-03-15T10:00:00Z') }, networks);
    expect(limited.endpoints).toEqual([{ network: 'base-sepolia', url: 'http://localhost:4321/node/base-sepolia/v2/' }]);
    expect(limited.previousKeyExpiresAt).toBe('2026-03-15T10:00:00.000Z');
    expect(limited.createdAt).toBe('1970-01-01T00:00:00.000Z');
  });
});
