import type { z } from 'zod';
import type { Account as AccountRecord } from '../accounts/account.ts';
import type { App as AppRecord } from '../apps/app.ts';
import type { AccountTokens } from '../accounts/auth-tokens.ts';
import type { DashboardNetwork } from './api.ts';
import type { Account, App, AccountToken } from './schemas.ts';

// Records as the dashboard shows them: times in ISO 8601, and each app's endpoints.

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function accountView(account: AccountRecord): z.infer<typeof Account> {
  return { id: account.id, email: account.email, createdAt: iso(account.createdAt) };
}

/** `endpoints`: `{node_url}/v2/` of each network the app may use (every one when it lists none). */
export function appView(app: AppRecord, networks: readonly DashboardNetwork[]): z.infer<typeof App> {
  const usable = app.allowedNetworks.length === 0 ? networks : networks.filter((network) => app.allowedNetworks.includes(network.id));
  return {
    id: app.id,
    name: app.name,
    state: app.state,
    allowedNetworks: [...app.allowedNetworks],
    allowedDomains: [...app.allowedDomains],
    computeUnitsPerSecond: app.computeUnitsPerSecond,
    monthlyComputeUnitQuota: app.monthlyComputeUnitQuota,
    createdAt: iso(app.createdAt),
    updatedAt: iso(app.updatedAt),
    version: app.version,
    previousKeyExpiresAt: isoOrNull(app.previousKeyExpiresAt),
    endpoints: usable.map((network) => ({ network: network.id, url: `${network.nodeUrl}/v2/` })),
  };
}

type TokenRecord = Awaited<ReturnType<AccountTokens['list']>>[number];

export function tokenView(token: TokenRecord): z.infer<typeof AccountToken> {
  return { id: token.id, name: token.name, createdAt: iso(token.createdAt), lastUsedAt: isoOrNull(token.lastUsedAt), revokedAt: isoOrNull(token.revokedAt) };
}
