import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Hex } from 'viem';
import type { DripRecord, FaucetStore } from './types.ts';

// The default store: one SQLite file (node:sqlite) in WAL mode. Each operation is a single
// statement or a BEGIN IMMEDIATE transaction, so it is atomic for every connection to the
// file, including other processes on this machine. synchronous=FULL: a committed ledger row
// survives a crash of the process or the machine.

const SCHEMA = `
CREATE TABLE IF NOT EXISTS address_limits (
  network_id TEXT NOT NULL,
  address TEXT NOT NULL,
  reservation_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('reserved', 'confirmed')),
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (network_id, address)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ip_limits (
  network_id TEXT NOT NULL,
  ip_hash TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (network_id, ip_hash)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS captcha_tokens (
  token_hash TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS drips (
  id INTEGER PRIMARY KEY,
  network_id TEXT NOT NULL,
  address TEXT NOT NULL,
  amount_wei TEXT NOT NULL,
  tx_hash TEXT,
  ip_hash TEXT,
  created_at INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'failed')),
  status_code TEXT
);
CREATE INDEX IF NOT EXISTS drips_by_recipient ON drips (network_id, address);
`;

/** Expired limit rows and tokens are deleted at most this often. */
const PRUNE_INTERVAL_MS = 10 * 60_000;

export function openSqliteStore(path: string): FaucetStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: 10_000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
  db.exec(SCHEMA);

  const immediate = <T>(fn: () => T): T => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };

  // An expired row is overwritten; a live one is left alone and RETURNING yields nothing.
  const reserve = db.prepare(`
    INSERT INTO address_limits (network_id, address, reservation_id, state, expires_at)
    VALUES ($network, $address, $id, 'reserved', $expires)
    ON CONFLICT (network_id, address) DO UPDATE
      SET reservation_id = excluded.reservation_id, state = 'reserved', expires_at = excluded.expires_at
      WHERE address_limits.expires_at <= $now
    RETURNING reservation_id`);
  const expiryOf = db.prepare('SELECT expires_at FROM address_limits WHERE network_id = $network AND address = $address');
  const confirm = db.prepare(`
    UPDATE address_limits SET state = 'confirmed', expires_at = $expires
    WHERE network_id = $network AND address = $address AND reservation_id = $id`);
  const release = db.prepare(`
    DELETE FROM address_limits
    WHERE network_id = $network AND address = $address AND reservation_id = $id AND state = 'reserved'`);
  // In SET, column names are the row's old values: a lapsed window restarts at 1.
  const takeIp = db.prepare(`
    INSERT INTO ip_limits (network_id, ip_hash, window_start, count) VALUES ($network, $ip, $now, 1)
    ON CONFLICT (network_id, ip_hash) DO UPDATE
      SET window_start = CASE WHEN window_start + $window <= $now THEN $now ELSE window_start END,
          count = CASE WHEN window_start + $window <= $now THEN 1 ELSE count + 1 END
      WHERE window_start + $window <= $now OR count < $max
    RETURNING window_start`);
  const ipWindowOf = db.prepare('SELECT window_start FROM ip_limits WHERE network_id = $network AND ip_hash = $ip');
  const returnIp = db.prepare(`
    UPDATE ip_limits SET count = count - 1
    WHERE network_id = $network AND ip_hash = $ip AND window_start = $start AND count > 0`);
  const claimToken = db.prepare(`
    INSERT INTO captcha_tokens (token_hash, expires_at) VALUES ($hash, $expires)
    ON CONFLICT (token_hash) DO UPDATE SET expires_at = excluded.expires_at WHERE captcha_tokens.expires_at <= $now
    RETURNING token_hash`);
  const insertDrip = db.prepare(`
    INSERT INTO drips (network_id, address, amount_wei, tx_hash, ip_hash, created_at, outcome, status_code)
    VALUES ($network, $address, $amount, $tx, $ip, $at, $outcome, $status)`);
  const selectDrips = db.prepare(`
    SELECT * FROM drips
    WHERE ($network IS NULL OR network_id = $network) AND ($address IS NULL OR address = $address)
    ORDER BY id`);

  let lastPrune = 0;
  const pruneExpired = (now: number) => {
    if (now - lastPrune < PRUNE_INTERVAL_MS) return;
    lastPrune = now;
    db.prepare('DELETE FROM captcha_tokens WHERE expires_at <= ?').run(now);
    db.prepare('DELETE FROM address_limits WHERE expires_at <= ?').run(now);
  };

  return {
    async reserveAddress({ networkId, address, windowMs, now }) {
      const key = { network: networkId, address: address.toLowerCase() };
      const id = randomUUID();
      pruneExpired(now.getTime());
      return immediate(() => {
        const row = reserve.get({ ...key, id, expires: now.getTime() + windowMs, now: now.getTime() });
        if (row) return { ok: true as const, reservation: { networkId, address: key.address, id, windowMs } };
        const existing = expiryOf.get(key) as { expires_at: number };
        return { ok: false as const, resetAt: new Date(existing.expires_at) };
      });
    },
    async confirmAddress(reservation, now) {
      confirm.run({ network: reservation.networkId, address: reservation.address, id: reservation.id, expires: now.getTime() + reservation.windowMs });
    },
    async releaseAddress(reservation) {
      release.run({ network: reservation.networkId, address: reservation.address, id: reservation.id });
    },
    async takeIpSlot({ networkId, ipHash, max, windowMs, now }) {
      const key = { network: networkId, ip: ipHash };
      return immediate(() => {
        const row = takeIp.get({ ...key, now: now.getTime(), window: windowMs, max }) as { window_start: number } | undefined;
        if (row) return { ok: true as const, slot: { networkId, ipHash, windowStart: row.window_start } };
        const existing = ipWindowOf.get(key) as { window_start: number };
        return { ok: false as const, resetAt: new Date(existing.window_start + windowMs) };
      });
    },
    async returnIpSlot(slot) {
      returnIp.run({ network: slot.networkId, ip: slot.ipHash, start: slot.windowStart });
    },
    async claimCaptchaToken(tokenHash, expiresAt, now) {
      return claimToken.get({ hash: tokenHash, expires: expiresAt.getTime(), now: now.getTime() }) !== undefined;
    },
    async recordDrip(record) {
      insertDrip.run({
        network: record.networkId,
        address: record.address.toLowerCase(),
        amount: record.amountWei.toString(),
        tx: record.txHash,
        ip: record.ipHash,
        at: record.createdAt.getTime(),
        outcome: record.outcome,
        status: record.statusCode,
      });
    },
    async listDrips(filter = {}) {
      const rows = selectDrips.all({ network: filter.networkId ?? null, address: filter.address?.toLowerCase() ?? null }) as unknown as DripRow[];
      return rows.map(toDripRecord);
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
}

interface DripRow {
  network_id: string;
  address: string;
  amount_wei: string;
  tx_hash: string | null;
  ip_hash: string | null;
  created_at: number;
  outcome: DripRecord['outcome'];
  status_code: string | null;
}

function toDripRecord(row: DripRow): DripRecord {
  return {
    networkId: row.network_id,
    address: row.address,
    amountWei: BigInt(row.amount_wei),
    txHash: row.tx_hash as Hex | null,
    ipHash: row.ip_hash,
    createdAt: new Date(row.created_at),
    outcome: row.outcome,
    statusCode: row.status_code,
  };
}
