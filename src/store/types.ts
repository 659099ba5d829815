import type { Hex } from 'viem';

// The faucet's persistent state behind one interface (a pure core over thin edges):
// SQLite (src/store/sqlite.ts) by default; Redis (src/store/redis.ts) for the limits and
// CAPTCHA tokens when several processes share them. Every method is atomic on its own.

/** A claim on one address's drip on one network, held from before the broadcast. */
export interface AddressReservation {
  networkId: string;
  /** Lowercase. */
  address: string;
  id: string;
  windowMs: number;
}

/** A reservation nobody confirmed or released: what a crash (or an unknown broadcast) left. */
export interface UnsettledReservation {
  reservation: AddressReservation;
  reservedAt: Date;
  /** The signed transaction's hash, recorded before its broadcast; null: nothing was signed. */
  txHash: Hex | null;
}

type ReserveResult = { ok: true; reservation: AddressReservation } | { ok: false; resetAt: Date };

/** One counted request of an IP within a window; handed back when no drip followed. */
export interface IpSlot {
  networkId: string;
  ipHash: string;
  windowStart: number;
}

type IpSlotResult = { ok: true; slot: IpSlot } | { ok: false; resetAt: Date };

export interface LimitStore {
  /**
   * Claims the address's drip on the network unless a claim or a drip inside its window
   * exists (docs/website.md#faucet-limits); on refusal `resetAt` says when the existing one lapses. The claim is
   * persistent, so a restart between reserve and confirm re-drips nobody.
   */
  reserveAddress(input: { networkId: string; address: string; windowMs: number; now: Date }): Promise<ReserveResult>;
  /**
   * Write-ahead: the drip's signed transaction is about to be broadcast. Durable before it
   * resolves, so a crash after the broadcast cannot forget that the address may have been paid.
   */
  recordBroadcast(reservation: AddressReservation, txHash: Hex): Promise<void>;
  /** The drip was broadcast: its window now runs from `now`. */
  confirmAddress(reservation: AddressReservation, now: Date): Promise<void>;
  /** No drip was sent: the address may ask again at once. */
  releaseAddress(reservation: AddressReservation): Promise<void>;
  /** Reservations neither confirmed nor released, made at or before `reservedBefore`, oldest first. */
  unsettledReservations(reservedBefore: Date): Promise<UnsettledReservation[]>;
  /** Counts one request of the IP on the network in a fixed window of `windowMs`, up to `max`. */
  takeIpSlot(input: { networkId: string; ipHash: string; max: number; windowMs: number; now: Date }): Promise<IpSlotResult>;
  /** Uncounts a slot whose request sent nothing (only within the same window). */
  returnIpSlot(slot: IpSlot): Promise<void>;
}

export interface CaptchaTokenStore {
  /** True when the token hash was claimed and has not expired: a read, never a write. */
  isCaptchaTokenUsed(tokenHash: string, now: Date): Promise<boolean>;
  /** True the first time a token hash is claimed before `expiresAt`; false for a reused token. */
  claimCaptchaToken(tokenHash: string, expiresAt: Date, now: Date): Promise<boolean>;
}

/** `pending`: signed and recorded, its broadcast under way or its outcome unknown. */
type DripOutcome = 'pending' | 'sent' | 'failed';

/** One row of the drip ledger: every drip the faucet attempted to broadcast. */
export interface DripRecord {
  networkId: string;
  /** Lowercase. */
  address: string;
  amountWei: bigint;
  /** null when the send failed before a transaction was signed. */
  txHash: Hex | null;
  /** Keyed hash of the client IP (src/faucet/ip-hash.ts), never the IP itself; null when unknown. */
  ipHash: string | null;
  createdAt: Date;
  outcome: DripOutcome;
  /** The statusCode answered for a failed broadcast. */
  statusCode: string | null;
}

export interface DripLedger {
  /** A `pending` row is the write-ahead record of a broadcast: durable before this resolves. */
  recordDrip(record: DripRecord): Promise<void>;
  /** The outcome of a `pending` drip became known. */
  settleDrip(txHash: Hex, settled: { outcome: 'sent' | 'failed'; statusCode: string | null }): Promise<void>;
  /** The drip's transaction was dropped and replaced at its nonce: it now travels under `replacement`. */
  replaceDrip(original: Hex, replacement: Hex): Promise<void>;
  /** The hash a dropped transaction was replaced by, if this ledger replaced it. */
  replacementOf(original: Hex): Promise<Hex | null>;
  /** Drips still `pending` that were recorded at or before `createdBefore`. */
  pendingDrips(createdBefore: Date): Promise<DripRecord[]>;
  /** In insertion order. */
  listDrips(filter?: { networkId?: string; address?: string }): Promise<DripRecord[]>;
}

export interface FaucetStore extends LimitStore, CaptchaTokenStore, DripLedger {
  close(): Promise<void>;
}

/** A write-ahead record found no reservation to go with: the drip must not be broadcast. */
export class ReservationLostError extends Error {
  constructor(reservation: AddressReservation) {
    super(`the reservation of ${reservation.address} on ${reservation.networkId} is no longer held`);
    this.name = 'ReservationLostError';
  }
}
