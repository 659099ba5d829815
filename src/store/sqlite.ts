import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Hex } from 'viem';
import { ReservationLostError, type DripRecord, type FaucetStore } from './types.ts';

// The default store: one SQLite file (node:sqlite) in WAL mode. Each operation is a single
// statement or a BEGIN IMMEDIATE transaction, so it is atomic for every connection to the
// file, including other processes on this machine.
//
// Group commit. Writes whose caller needs no answer from them (confirm, release, the ledger)
// are queued and committed together once per turn of the event loop: a batch of drips that
// finish together costs one commit, not one each.
//
// Durability. Commits are synchronous=NORMAL: they survive a crash of the process (the WAL is
// in the OS's hands) but not of the machine. The write-ahead records of a broadcast (the
// reservation's hash and the `pending` ledger row) are durable: their group is committed with
// synchronous=FULL, which syncs the WAL and so every commit before it too. A batch of
// broadcasts costs one fsync, and a refused request none.

/** Each entry brings the schema from the version before it to its own index + 1. */
const MIGRATIONS = [
  `
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
CREATE INDEX IF NOT EXISTS drips_by_recipient ON drips (network_id, address);`,
  // Write-ahead records: a reservation carries its signed hash; drips may be pending, or replaced.
  `
ALTER TABLE address_limits ADD COLUMN reserved_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE address_limits ADD COLUMN tx_hash TEXT;
-- A reservation from before write-ahead records may have been broadcast: it is left to lapse.
UPDATE address_limits SET reserved_at = expires_at;
CREATE INDEX address_limits_unsettled ON address_limits (reserved_at) WHERE state = 'reserved';
CREATE TABLE drips_v2 (
  id INTEGER PRIMARY KEY,
  network_id TEXT NOT NULL,
  address TEXT NOT NULL,
  amount_wei TEXT NOT NULL,
  tx_hash TEXT,
  ip_hash TEXT,
  created_at INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'sent', 'failed')),
  status_code TEXT,
  original_tx_hash TEXT
);
INSERT INTO drips_v2 (id, network_id, address, amount_wei, tx_hash, ip_hash, created_at, outcome, status_code)
  SELECT id, network_id, address, amount_wei, tx_hash, ip_hash, created_at, outcome, status_code FROM drips;
DROP TABLE drips;
ALTER TABLE drips_v2 RENAME TO drips;
CREATE INDEX drips_by_recipient ON drips (network_id, address);
CREATE INDEX drips_by_hash ON drips (tx_hash);
CREATE INDEX drips_pending ON drips (created_at) WHERE outcome = 'pending';`,
];

/** Expired limit rows and tokens are deleted at most this often. */
const PRUNE_INTERVAL_MS = 10 * 60_000;

export function openSqliteStore(path: string): FaucetStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: 10_000 });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');

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
  migrate(db, immediate);

  const queuedWrites: Array<{ write: () => void; resolve: () => void; reject: (error: unknown) => void }> = [];
  let queuedDurable = false;
  /**
   * Queues a write for the next group commit (this turn of the event loop); resolves once it
   * is committed, and when `durable`, once it is on disk.
   */
  const grouped = (write: () => void, durable: boolean) =>
    new Promise<void>((resolve, reject) => {
      queuedWrites.push({ write, resolve, reject });
      if (queuedWrites.length === 1) setImmediate(commitQueuedWrites);
      // A write-ahead record holds up a broadcast: its group commits as soon as the current
      // synchronous run (which queues a whole batch's records) is over.
      if (durable && !queuedDurable) queueMicrotask(commitQueuedWrites);
      queuedDurable ||= durable;
    });
  /** Every other statement runs after the queued writes, so a read sees what was written before it. */
  const afterQueuedWrites = <T>(statement: () => T): T => {
    if (queuedWrites.length) commitQueuedWrites();
    return statement();
  };
  const commitQueuedWrites = () => {
    if (!queuedWrites.length) return;
    if (!db.isOpen) {
      for (const item of queuedWrites.splice(0)) item.reject(new Error('the store is closed'));
      return;
    }
    const group = queuedWrites.splice(0);
    const durable = queuedDurable;
    queuedDurable = false;
    const failures = new Map<number, unknown>();
    try {
      if (durable) db.exec('PRAGMA synchronous = FULL');
      immediate(() => {
        for (const [i, { write }] of group.entries()) {
          // One write's fault does not undo the others'.
          db.exec('SAVEPOINT write');
          try {
            write();
          } catch (error) {
            failures.set(i, error);
            db.exec('ROLLBACK TO write');
          }
          db.exec('RELEASE write');
        }
      });
    } catch (error) {
      for (const item of group) item.reject(error);
      return;
    } finally {
      if (durable) db.exec('PRAGMA synchronous = NORMAL');
    }
    for (const [i, item] of group.entries()) {
      if (failures.has(i)) item.reject(failures.get(i));
      else item.resolve();
    }
  };
  const durably = (write: () => void) => grouped(write, true);
  const lazily = (write: () => void) => grouped(write, false);

  // An expired row is overwritten; a live one is left alone and RETURNING yields nothing.
  const reserve = db.prepare(`
    INSERT INTO address_limits (network_id, address, reservation_id, state, expires_at, reserved_at, tx_hash)
    VALUES ($network, $address, $id, 'reserved', $expires, $now, NULL)
    ON CONFLICT (network_id, address) DO UPDATE
      SET reservation_id = excluded.reservation_id, state = 'reserved', expires_at = excluded.expires_at,
          reserved_at = excluded.reserved_at, tx_hash = NULL
      WHERE address_limits.expires_at <= $now
    RETURNING reservation_id`);
  const expiryOf = db.prepare('SELECT expires_at FROM address_limits WHERE network_id = $network AND address = $address');
  const recordHash = db.prepare(`
    UPDATE address_limits SET tx_hash = $hash
    WHERE network_id = $network AND address = $address AND reservation_id = $id AND state = 'reserved'`);
  const confirm = db.prepare(`
    UPDATE address_limits SET state = 'confirmed', expires_at = $expires
    WHERE network_id = $network AND address = $address AND reservation_id = $id`);
  const release = db.prepare(`
    DELETE FROM address_limits
    WHERE network_id = $network AND address = $address AND reservation_id = $id AND state = 'reserved'`);
  const selectUnsettled = db.prepare(`
    SELECT network_id, address, reservation_id, expires_at, reserved_at, tx_hash FROM address_limits
    WHERE state = 'reserved' AND reserved_at <= $before ORDER BY reserved_at`);
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
  const tokenUsed = db.prepare('SELECT 1 FROM captcha_tokens WHERE token_hash = $hash AND expires_at > $now');
  const claimToken = db.prepare(`
    INSERT INTO captcha_tokens (token_hash, expires_at) VALUES ($hash, $expires)
    ON CONFLICT (token_hash) DO UPDATE SET expires_at = excluded.expires_at WHERE captcha_tokens.expires_at <= $now
    RETURNING token_hash`);
  const insertDrip = db.prepare(`
    INSERT INTO drips (network_id, address, amount_wei, tx_hash, ip_hash, created_at, outcome, status_code)
    VALUES ($network, $address, $amount, $tx, $ip, $at, $outcome, $status)`);
  const settle = db.prepare(`UPDATE drips SET outcome = $outcome, status_code = $status WHERE tx_hash = $tx AND outcome = 'pending'`);
  const replace = db.prepare(`UPDATE drips SET tx_hash = $replacement, original_tx_hash = coalesce(original_tx_hash, $original) WHERE tx_hash = $original`);
  const selectReplacement = db.prepare(`SELECT tx_hash FROM drips WHERE original_tx_hash = $original`);
  const selectPending = db.prepare(`SELECT * FROM drips WHERE outcome = 'pending' AND created_at <= $before ORDER BY id`);
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
  const keyOf = (reservation: { networkId: string; address: string; id: string }) => ({
    network: reservation.networkId,
    address: reservation.address,
    id: reservation.id,
  });

  return {
    async reserveAddress({ networkId, address, windowMs, now }) {
      const key = { network: networkId, address: address.toLowerCase() };
      pruneExpired(now.getTime());
      if (queuedWrites.length) commitQueuedWrites();
      for (;;) {
        const id = randomUUID();
        // One statement: atomic on its own, for every connection to the file.
        if (reserve.get({ ...key, id, expires: now.getTime() + windowMs, now: now.getTime() })) {
          return { ok: true as const, reservation: { networkId, address: key.address, id, windowMs } };
        }
        const existing = expiryOf.get(key) as { expires_at: number } | undefined;
        // Unless its holder released it in between: then it is tried again.
        if (existing) return { ok: false as const, resetAt: new Date(existing.expires_at) };
      }
    },
    recordBroadcast: (reservation, txHash) =>
      durably(() => {
        // No write-ahead record, no broadcast: the reservation is gone (lapsed, or settled by reconcile).
        if (recordHash.run({ ...keyOf(reservation), hash: txHash }).changes === 0) throw new ReservationLostError(reservation);
      }),
    confirmAddress: (reservation, now) => lazily(() => confirm.run({ ...keyOf(reservation), expires: now.getTime() + reservation.windowMs })),
    releaseAddress: (reservation) => lazily(() => release.run(keyOf(reservation))),
    async unsettledReservations(reservedBefore) {
      const rows = afterQueuedWrites(() => selectUnsettled.all({ before: reservedBefore.getTime() })) as unknown as ReservationRow[];
      return rows.map((row) => ({
        reservation: { networkId: row.network_id, address: row.address, id: row.reservation_id, windowMs: row.expires_at - row.reserved_at },
        reservedAt: new Date(row.reserved_at),
        txHash: row.tx_hash as Hex | null,
      }));
    },
    async takeIpSlot({ networkId, ipHash, max, windowMs, now }) {
      const key = { network: networkId, ip: ipHash };
      return afterQueuedWrites(() =>
        immediate(() => {
          const row = takeIp.get({ ...key, now: now.getTime(), window: windowMs, max }) as { window_start: number } | undefined;
          if (row) return { ok: true as const, slot: { networkId, ipHash, windowStart: row.window_start } };
          const existing = ipWindowOf.get(key) as { window_start: number };
          return { ok: false as const, resetAt: new Date(existing.window_start + windowMs) };
        }),
      );
    },
    returnIpSlot: (slot) => lazily(() => returnIp.run({ network: slot.networkId, ip: slot.ipHash, start: slot.windowStart })),
    async isCaptchaTokenUsed(tokenHash, now) {
      // Claims are written at once, never queued: this read needs no flush.
      return tokenUsed.get({ hash: tokenHash, now: now.getTime() }) !== undefined;
    },
    async claimCaptchaToken(tokenHash, expiresAt, now) {
      return afterQueuedWrites(() => claimToken.get({ hash: tokenHash, expires: expiresAt.getTime(), now: now.getTime() })) !== undefined;
    },
    recordDrip(record) {
      const insert = () =>
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
      return record.outcome === 'pending' ? durably(insert) : lazily(insert);
    },
    settleDrip: (txHash, { outcome, statusCode }) => lazily(() => settle.run({ tx: txHash, outcome, status: statusCode })),
    replaceDrip: (original, replacement) => lazily(() => replace.run({ original, replacement })),
    async replacementOf(original) {
      return ((afterQueuedWrites(() => selectReplacement.get({ original })) as { tx_hash: Hex } | undefined)?.tx_hash ?? null) as Hex | null;
    },
    async pendingDrips(createdBefore) {
      return (afterQueuedWrites(() => selectPending.all({ before: createdBefore.getTime() })) as unknown as DripRow[]).map(toDripRecord);
    },
    async listDrips(filter = {}) {
      const rows = afterQueuedWrites(() =>
        selectDrips.all({ network: filter.networkId ?? null, address: filter.address?.toLowerCase() ?? null }),
      ) as unknown as DripRow[];
      return rows.map(toDripRecord);
    },
    async close() {
      if (!db.isOpen) return;
      commitQueuedWrites();
      db.close();
    },
  };
}

/** Applies the migrations this file has not seen yet, each in its own transaction (PRAGMA user_version). */
function migrate(db: DatabaseSync, immediate: <T>(fn: () => T) => T): void {
  immediate(() => {
    // Files written before versioning have tables but version 0: the first migration is idempotent.
    const { user_version: version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
    for (let next = version; next < MIGRATIONS.length; next++) {
      db.exec(MIGRATIONS[next]!);
      db.exec(`PRAGMA user_version = ${next + 1}`);
    }
  });
}

interface ReservationRow {
  network_id: string;
  address: string;
  reservation_id: string;
  expires_at: number;
  reserved_at: number;
  tx_hash: string | null;
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
