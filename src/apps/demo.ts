import { APP_DEFAULTS, type App } from './app.ts';

// The demo key (docs/keys-and-limits.md#demo-key): the literal `demo`, and its alias `docs-demo`, work on every
// network without an account. They are no row in the database: the gateway treats them as this
// app, and limits them per client IP itself.

const DEMO_KEYS = new Set(['demo', 'docs-demo']);

export function isDemoKey(key: string): boolean {
  return DEMO_KEYS.has(key);
}

export const demoApp: App = Object.freeze({
  id: 'demo',
  name: 'Demo',
  ownerId: null,
  allowedDomains: Object.freeze([]),
  allowedNetworks: Object.freeze([]),
  // The gateway limits the demo key per client IP and network instead.
  computeUnitsPerSecond: APP_DEFAULTS.computeUnitsPerSecond,
  monthlyComputeUnitQuota: null,
  state: 'active',
  createdAt: 0,
  updatedAt: 0,
  version: 0,
  previousKeyExpiresAt: null,
});
