// An app as the gateway, the CLI and the dashboard see it (docs/keys-and-limits.md#apps). Its key is not part
// of it: create and rotate hand a key out once, revealKey shows it to its owner again.

export type AppState = 'active' | 'disabled';

export interface App {
  /** `app_` and 16 hex digits; request logs name the app by it, never by its key. */
  id: string;
  name: string;
  /** The owning account; null for apps the operators' CLI created. */
  ownerId: string | null;
  /** Lowercase hosts (`example.com`) and wildcards (`*.example.com`); empty: any origin. */
  allowedDomains: readonly string[];
  /** Network ids (content/networks/); empty: every network. */
  allowedNetworks: readonly string[];
  computeUnitsPerSecond: number;
  /** Compute units per UTC calendar month; null: unlimited. */
  monthlyComputeUnitQuota: number | null;
  state: AppState;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  /** +1 on every change: a form saved over a newer version is refused (StaleVersionError). */
  version: number;
  /** Until when the key replaced by the last rotation still works; null: it no longer does. */
  previousKeyExpiresAt: number | null;
}

export const APP_STATES: readonly AppState[] = ['active', 'disabled'];

/** What an app gets unless its creator says otherwise. */
export const APP_DEFAULTS = { computeUnitsPerSecond: 330, monthlyComputeUnitQuota: 300_000_000 } as const;
