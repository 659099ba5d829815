import { parseEther, parseGwei, type Address, type Hex } from 'viem';
import type { FaucetChain, ReceiptStatus, TransferFacts } from '../../src/chain/faucet-chain.ts';
import type { MainnetReader } from '../../src/chain/mainnet.ts';
import type { FaucetNetwork } from '../../src/chain/networks.ts';
import type { SendOutcome } from '../../src/chain/sender.ts';
import type { CaptchaVerifier } from '../../src/faucet/captcha.ts';
import { createFaucet, type Faucet, type FaucetDeps } from '../../src/faucet/service.ts';
import type { AddressReservation, DripLedger, DripRecord, IpSlot, LimitStore, UnsettledReservation } from '../../src/store/types.ts';

// In-memory stand-ins for what the faucet's decision chain asks (its core is plain code over
// small interfaces): a CAPTCHA verifier, a limit store with its drip ledger, a mainnet reader, chains and a
// clock. They keep the contract of src/store/types.ts and src/chain/faucet-chain.ts in the
// simplest way, and every call is written to one journal, so a test can say what was asked, and
// in which order. The real edges are tested against SQLite, Redis and anvil (test/integration/).

/** Every call to a fake, as `<fake>.<method>`, in the order made. */
type Journal = string[];

/** Wraps each method of `target` so that its calls are journaled as `name.method`. */
function journaled<T extends object>(name: string, target: T, journal: Journal): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        journal.push(`${name}.${key}`);
        return value.apply(object, args);
      };
    },
  });
}

export const SOLVED_TOKEN = 'solved-captcha';

/** Accepts SOLVED_TOKEN, refuses any other token. */
function fakeCaptcha(): CaptchaVerifier {
  return {
    kind: 'development',
    async verify({ token }) {
      return token === SOLVED_TOKEN ? { ok: true } : { ok: false, details: 'invalid-input-response' };
    },
  };
}

interface FakeClock {
  now(): Date;
  advance(ms: number): void;
}

function fakeClock(start = Date.UTC(2026, 0, 1)): FakeClock {
  let now = start;
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
}

interface ReservationRow {
  id: string;
  state: 'reserved' | 'confirmed';
  expiresAt: number;
  reservedAt: number;
  windowMs: number;
  txHash: Hex | null;
}

type FakeStore = LimitStore & DripLedger & { reservationOf(networkId: string, address: string): ReservationRow | undefined };

/** The limits and the ledger in maps: each method atomic, as src/store/types.ts asks. */
function fakeStore(): FakeStore {
  const reservations = new Map<string, ReservationRow>();
  const ipWindows = new Map<string, { windowStart: number; count: number }>();
  const drips: Array<DripRecord & { replaced?: Hex }> = [];
  let nextId = 0;
  const keyOf = (networkId: string, address: string) => `${networkId}:${address.toLowerCase()}`;
  const held = (reservation: AddressReservation) => {
    const row = reservations.get(keyOf(reservation.networkId, reservation.address));
    return row?.id === reservation.id ? row : undefined;
  };
  return {
    reservationOf: (networkId, address) => reservations.get(keyOf(networkId, address)),
    async reserveAddress({ networkId, address, windowMs, now }) {
      const key = keyOf(networkId, address);
      const existing = reservations.get(key);
      if (existing && existing.expiresAt > now.getTime()) return { ok: false, resetAt: new Date(existing.expiresAt) };
      const id = String(++nextId);
      reservations.set(key, { id, state: 'reserved', expiresAt: now.getTime() + windowMs, reservedAt: now.getTime(), windowMs, txHash: null });
      return { ok: true, reservation: { networkId, address: address.toLowerCase(), id, windowMs } };
    },
    async recordBroadcast(reservation, txHash) {
      const row = held(reservation);
      if (row?.state === 'reserved') row.txHash = txHash;
    },
    async confirmAddress(reservation, now) {
      const row = held(reservation);
      if (row) Object.assign(row, { state: 'confirmed', expiresAt: now.getTime() + row.windowMs });
    },
    async releaseAddress(reservation) {
      if (held(reservation)?.state === 'reserved') reservations.delete(keyOf(reservation.networkId, reservation.address));
    },
    async unsettledReservations(reservedBefore) {
      const unsettled: UnsettledReservation[] = [];
      for (const [key, row] of reservations) {
        if (row.state !== 'reserved' || row.reservedAt > reservedBefore.getTime()) continue;
        const [networkId, address] = key.split(':') as [string, string];
        unsettled.push({ reservation: { networkId, address, id: row.id, windowMs: row.windowMs }, reservedAt: new Date(row.reservedAt), txHash: row.txHash });
      }
      return unsettled;
    },
    async takeIpSlot({ networkId, ipHash, max, windowMs, now }) {
      const key = `${networkId}:${ipHash}`;
      const window = ipWindows.get(key);
      if (!window || window.windowStart + windowMs <= now.getTime()) {
        ipWindows.set(key, { windowStart: now.getTime(), count: 1 });
        return { ok: true, slot: { networkId, ipHash, windowStart: now.getTime() } };
      }
      if (window.count >= max) return { ok: false, resetAt: new Date(window.windowStart + windowMs) };
      window.count++;
      return { ok: true, slot: { networkId, ipHash, windowStart: window.windowStart } };
    },
    async returnIpSlot(slot: IpSlot) {
      const window = ipWindows.get(`${slot.networkId}:${slot.ipHash}`);
      if (window && window.windowStart === slot.windowStart && window.count > 0) window.count--;
    },
    async recordDrip(record) {
      drips.push({ ...record, address: record.address.toLowerCase() });
    },
    async settleDrip(txHash, { outcome, statusCode }) {
      for (const drip of drips) if (drip.txHash === txHash && drip.outcome === 'pending') Object.assign(drip, { outcome, statusCode });
    },
    async replaceDrip(original, replacement) {
      for (const drip of drips) if (drip.txHash === original) Object.assign(drip, { txHash: replacement, replaced: drip.replaced ?? original });
    },
    async replacementOf(original) {
      return drips.find((drip) => drip.replaced === original)?.txHash ?? null;
    },
    async pendingDrips(createdBefore) {
      return drips.filter((drip) => drip.outcome === 'pending' && drip.createdAt.getTime() <= createdBefore.getTime()).map(({ replaced: _, ...drip }) => drip);
    },
    async listDrips(filter = {}) {
      return drips
        .filter((drip) => (!filter.networkId || drip.networkId === filter.networkId) && (!filter.address || drip.address === filter.address.toLowerCase()))
        .map(({ replaced: _, ...drip }) => drip);
    },
  };
}

/** What the node answers a broadcast: it takes it, refuses it (after or before signing), or gives no answer. */
type BroadcastAnswer = 'taken' | 'unknown' | 'refused-before-signing' | Exclude<SendOutcome, { ok: true }>['reason'];

/** A faucet network's chain, as its node would answer; every field may be changed by a test. */
interface FakeChain extends FaucetChain {
  recipientBalance: bigint;
  walletBalance: bigint;
  /** The gas a transfer to the recipient needs. */
  gas: bigint;
  /** Thrown by prepareTransfer (a node's refusal of the estimate). */
  prepareError: unknown;
  broadcastAnswer: BroadcastAnswer;
  receipts: Map<Hex, ReceiptStatus>;
  /** Transactions the node has; what it took is added. */
  known: Set<Hex>;
  inFlight: Set<Hex>;
  /** Whether the node can be asked at all. */
  reachable: boolean;
}

const GAS_PRICE = parseGwei('2');
const FAUCET_WALLET: Address = '0x00000000000000000000000000000000FA0CE7AA';

function fakeChain(network: FaucetNetwork & { chainId: number }): FakeChain {
  let nonce = 0;
  const unreachable = () => new Error('connect ECONNREFUSED 127.0.0.1:8545');
  const chain: FakeChain = {
    network,
    chainId: network.chainId,
    faucetAddress: FAUCET_WALLET,
    recipientBalance: 0n,
    walletBalance: parseEther('100'),
    gas: 21_000n,
    prepareError: null,
    broadcastAnswer: 'taken',
    receipts: new Map(),
    known: new Set(),
    inFlight: new Set(),
    reachable: true,
    explorerUrl: (hash) => (network.explorer ? `${network.explorer}/tx/${hash}` : undefined),
    async prepareTransfer(): Promise<TransferFacts> {
      if (chain.prepareError) throw chain.prepareError;
      const quote = { type: 'legacy' as const, gasPrice: GAS_PRICE, gas: chain.gas, maxFee: chain.gas * GAS_PRICE };
      return { quote, recipientBalance: chain.recipientBalance, walletBalance: chain.walletBalance };
    },
    async transfer(_to, _value, _quote, beforeBroadcast) {
      const error = new Error(`the node answered ${chain.broadcastAnswer}`);
      if (chain.broadcastAnswer === 'refused-before-signing') return { ok: false, reason: 'failed', error };
      const signed = { hash: `0x${(++nonce).toString(16).padStart(64, '0')}` as Hex, nonce };
      await beforeBroadcast?.(signed);
      switch (chain.broadcastAnswer) {
        case 'taken':
          chain.known.add(signed.hash);
          return { ok: true, ...signed };
        case 'unknown':
          chain.inFlight.add(signed.hash);
          return { ok: false, reason: 'unknown', ...signed, error };
        default:
          return { ok: false, reason: chain.broadcastAnswer, error };
      }
    },
    async receiptStatus(hash) {
      if (!chain.reachable) throw unreachable();
      return chain.receipts.get(hash) ?? 'pending';
    },
    async hasTransaction(hash) {
      if (!chain.reachable) throw unreachable();
      return chain.known.has(hash);
    },
    isInFlight: (hash) => chain.inFlight.has(hash),
    async close() {},
  };
  return chain;
}

interface FakeMainnet extends MainnetReader {
  balance: bigint;
  transactionCount: number;
}

function fakeMainnet(): FakeMainnet {
  const mainnet: FakeMainnet = {
    balance: parseEther('1'),
    transactionCount: 10,
    getBalance: async () => mainnet.balance,
    getTransactionCount: async () => mainnet.transactionCount,
  };
  return mainnet;
}

export function testNetwork(id: string, overrides: Partial<Omit<FaucetNetwork, 'chainId'>> = {}): FaucetNetwork & { chainId: number } {
  return {
    id,
    name: id
      .split('-')
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join(' '),
    chainId: 7_357_000 + id.length,
    vm: 'evm',
    symbol: 'ETH',
    decimals: 18,
    explorer: `https://${id}.explorer.example`,
    dripAmount: '0.1',
    dripWei: parseEther('0.1'),
    maxBalanceWei: parseEther('1'),
    rateWindowMs: 24 * 3_600_000,
    maxDripGas: 100_000n,
    deprecated: false,
    suggestForDeprecated: false,
    ...overrides,
  };
}

export interface TestFaucet {
  faucet: Faucet;
  journal: Journal;
  store: FakeStore;
  /** The chain of each network by id; `chains.get` answers null for a network listed in `unserved`. */
  chains: Record<string, FakeChain>;
  unserved: Set<string>;
  mainnet: FakeMainnet;
  clock: FakeClock;
  loggedErrors: string[];
}

/** A faucet over the fakes; `deps` replaces any of its settings (limits, anti-sybil thresholds). */
export function testFaucet(networks: FaucetNetwork[], deps: Partial<Pick<FaucetDeps, 'perIpLimit' | 'statusPollLimit' | 'settleAfterMs'>> = {}): TestFaucet {
  const journal: Journal = [];
  const clock = fakeClock();
  const store = fakeStore();
  const mainnet = fakeMainnet();
  const chains = Object.fromEntries(
    networks.map((network) => [network.id, journaled('chain', fakeChain({ ...network, chainId: network.chainId ?? 0 }), journal)]),
  );
  const unserved = new Set<string>();
  const loggedErrors: string[] = [];
  const faucet = createFaucet({
    networks,
    captcha: journaled('captcha', fakeCaptcha(), journal),
    store: journaled('store', store, journal),
    chains: journaled('chains', { get: async (network: FaucetNetwork) => (unserved.has(network.id) ? null : chains[network.id]!) }, journal),
    antiSybil: { reader: journaled('mainnet', mainnet, journal), minBalanceWei: parseEther('0.001'), minTxCount: 1 },
    perIpLimit: { max: 5, windowMs: 24 * 3_600_000 },
    statusPollLimit: null,
    ipv6PrefixLength: 64,
    hashIp: (ip) => `hashed:${ip}`,
    clock: clock.now,
    logError: (message) => void loggedErrors.push(message),
    ...deps,
  });
  return { faucet, journal, store, chains, unserved, mainnet, clock, loggedErrors };
}
