// The typed table map of the platform's database (src/db/migrations/ creates the tables). The
// same row types hold on both engines: timestamps are integer milliseconds since the epoch
// (bigint on PostgreSQL, read back as numbers), lists are JSON text.

export interface DatabaseSchema {
  apps: AppRow;
  usage_minutes: UsageMinuteRow;
  usage_errors: UsageErrorRow;
}

/** An app and its key (platform §2). */
export interface AppRow {
  id: string;
  name: string;
  owner_id: string | null;
  /** SHA-256 hex of the current key: the gateway's lookup. */
  key_hash: string;
  /** The current key sealed with AES-256-GCM under APP_KEY_SECRET, so its owner can view it again. */
  key_sealed: string;
  /** The key before the last rotation, accepted until previous_key_expires_at (a grace period). */
  previous_key_hash: string | null;
  previous_key_expires_at: number | null;
  /** JSON array of hosts (`example.com`, `*.example.com`); empty: any origin. */
  allowed_domains: string;
  /** JSON array of network ids; empty: every network. */
  allowed_networks: string;
  compute_units_per_second: number;
  /** null: unlimited. */
  monthly_compute_unit_quota: number | null;
  state: 'active' | 'disabled';
  created_at: number;
  updated_at: number;
  /** +1 on every change (stale-form checks). */
  version: number;
}

/** Requests of one app, network and method in one UTC minute. */
export interface UsageMinuteRow {
  app_id: string;
  network: string;
  method: string;
  /** Start of the minute, ms since the epoch. */
  minute: number;
  requests: number;
  compute_units: number;
  errors: number;
}

/** Errors by code of one app and network in one UTC minute. */
export interface UsageErrorRow {
  app_id: string;
  network: string;
  code: number;
  minute: number;
  count: number;
}
