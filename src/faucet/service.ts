import { LRUCache } from 'lru-cache';
import { getAddress, isAddress, type Address, type Hex } from 'viem';
import { classifyNodeError } from '../chain/node-errors.ts';
import type { FaucetChain } from '../chain/faucet-chain.ts';
import type { MainnetReader } from '../chain/mainnet.ts';
import type { FaucetNetwork } from '../chain/networks.ts';
import type { SendOutcome } from '../chain/sender.ts';
import type { AddressReservation, DripLedger, IpSlot, LimitStore } from '../store/types.ts';
import type { CaptchaVerifier } from './captcha.ts';
import { describeCause } from './cause.ts';
import { ipBucketOf } from '../http/ip-bucket.ts';
import type { FaucetTransactionStatus } from './bodies.ts';
import type { FaucetSendCode } from './errors.ts';
import { failure, type FaucetSendResult, type FaucetStatusResult } from './results.ts';
import { createPollLimiter, type PollLimit } from './poll-limiter.ts';

// The faucet's decision chain (steps 4–9; steps 1–3 are the HTTP layer's): plain code over
// small interfaces, so every rule is unit-tested over in-memory fakes, and the whole against
// real SQLite, anvil and Redis. The order and the rules are written down in README.md beside
// this file.

export interface FaucetDeps {
  networks: readonly FaucetNetwork[];
  captcha: CaptchaVerifier;
  store: LimitStore & DripLedger;
  chains: { get(network: FaucetNetwork): Promise<FaucetChain | null> };
  /** null: no anti-sybil check. */
  antiSybil: { reader: MainnetReader; minBalanceWei: bigint; minTxCount: number } | null;
  /** null: no per-IP limit on drips. */
  perIpLimit: { max: number; windowMs: number } | null;
  /** Status polls per client bucket (per IP, per IPv6 prefix); null: not limited. */
  statusPollLimit: PollLimit | null;
  /** IPv6 clients are counted per prefix of this length (src/http/ip-bucket.ts). */
  ipv6PrefixLength: number;
  hashIp: (ip: string) => string;
  /** How long a reservation may stay unsettled before `reconcile` settles it from the chain. */
  settleAfterMs?: number;
  clock?: () => Date;
  /** Where faults that cannot change the answer go (default: one JSON line on stderr). */
  logError?: (message: string, error: unknown) => void;
}

export interface FaucetSendInput {
  faucetId: string;
  /** Already checked by the HTTP layer against ^0x[a-fA-F0-9]{40}$ (docs/website.md#faucet-send). */
  address: string;
  turnstileToken: string;
  /** The client IP as the edge reports it; null when unknown (counted in one shared bucket). */
  ip: string | null;
}

interface FaucetStatusInput {
  faucetId: string;
  transactionHash: string;
  /** The client IP as the edge reports it, for the poll limit; null when unknown. */
  ip: string | null;
}

export interface Faucet {
  send(input: FaucetSendInput): Promise<FaucetSendResult>;
  status(input: FaucetStatusInput): Promise<FaucetStatusResult>;
  /**
   * Settles what a crash or an unknown broadcast left: a reservation with no signed
   * transaction is released; one whose transaction the node has is confirmed; one whose
   * transaction the node does not have, and that no sender still holds, is released. Returns
   * how many it settled. Run at start and periodically.
   */
  reconcile(): Promise<number>;
}

type Refusal = Exclude<FaucetSendResult, { ok: true }>;
/** How far a send got with its reservation held: refused before the broadcast, or broadcast. */
type DripAttempt = Refusal | { ok: true; chain: FaucetChain; outcome: SendOutcome; signedHash: Hex | null };

/** Default for `settleAfterMs`: far longer than any send takes. */
const SETTLE_AFTER_MS = 2 * 60_000;
/** Final status answers kept (a mined receipt never changes). */
const FINAL_STATUS_CACHE_SIZE = 10_000;

export function createFaucet(deps: FaucetDeps): Faucet {
  const clock = deps.clock ?? (() => new Date());
  const logError = deps.logError ?? defaultLogError;
  const settleAfterMs = deps.settleAfterMs ?? SETTLE_AFTER_MS;
  const networkIds = deps.networks.map((n) => n.id);
  const byId = new Map(deps.networks.map((n) => [n.id, n]));
  // Where to send callers of a deprecated network: the one content/networks/ names, else any funded one.
  const fundedSuggestion = deps.networks.find((n) => n.suggestForDeprecated) ?? deps.networks.find((n) => !n.deprecated);
  const finalStatuses = new LRUCache<string, FaucetTransactionStatus>({ max: FINAL_STATUS_CACHE_SIZE });
  const pollLimiter = deps.statusPollLimit && createPollLimiter(deps.statusPollLimit);

  const unsupported = () => failure('unsupported_faucet', { supportedChains: networkIds });

  const deprecated = (network: FaucetNetwork) =>
    failure('insufficient_faucet_balance', {
      message: `${network.name} is deprecated and no longer funded.`,
      hint: fundedSuggestion ? `Request from a funded network instead, such as ${fundedSuggestion.name} (${fundedSuggestion.id}).` : undefined,
    });

  /** Steps 6–9, with the address (and IP) reservation held. */
  const dripReserved = async (network: FaucetNetwork, recipient: Address, reservation: AddressReservation, ipHash: string | null): Promise<DripAttempt> => {
    // 6. anti-sybil on mainnet: balance first, then activity.
    if (deps.antiSybil) {
      const { reader, minBalanceWei, minTxCount } = deps.antiSybil;
      if ((await reader.getBalance(recipient)) < minBalanceWei) return failure('insufficient_mainnet_balance');
      if ((await reader.getTransactionCount(recipient)) < minTxCount) return failure('insufficient_mainnet_activity');
    }
    const chain = await deps.chains.get(network);
    if (!chain) {
      return failure('insufficient_faucet_balance', { message: `${network.name} is not served by this faucet deployment.` });
    }
    const facts = await chain.prepareTransfer(recipient, network.dripWei).catch((error: unknown) => {
      // A node refuses to estimate a transfer the wallet cannot pay for, or one the recipient refuses.
      const kind = classifyNodeError(error);
      if (kind === 'insufficient_funds') return failure('insufficient_faucet_balance');
      if (kind === 'reverted') return recipientRefuses(network);
      throw error;
    });
    if ('ok' in facts) return facts;
    // 7. recipient cap.
    if (facts.recipientBalance > network.maxBalanceWei) return failure('max_balance_exceeded');
    // The faucet pays for a plain transfer, not for the recipient's code.
    if (facts.quote.gas > network.maxDripGas) return recipientRefuses(network);
    // 8. the wallet must cover drip + the most the fee can be.
    if (facts.walletBalance < network.dripWei + facts.quote.maxFee) return failure('insufficient_faucet_balance');
    // 9. broadcast, with the write-ahead records made durable first. A retry after a nonce
    // error signs anew: the hash it replaces was refused by the node.
    let signedHash: Hex | null = null;
    const outcome = await chain.transfer(recipient, network.dripWei, facts.quote, async ({ hash }) => {
      if (signedHash) await deps.store.settleDrip(signedHash, { outcome: 'failed', statusCode: 'nonce_conflict' });
      signedHash = hash;
      const record = {
        networkId: network.id,
        address: recipient,
        amountWei: network.dripWei,
        txHash: hash,
        ipHash,
        createdAt: clock(),
        outcome: 'pending',
        statusCode: null,
      } as const;
      await Promise.all([deps.store.recordBroadcast(reservation, hash), deps.store.recordDrip(record)]);
    });
    return { ok: true, chain, outcome, signedHash };
  };

  const outcomeCode: Record<Exclude<SendOutcome, { ok: true }>['reason'], FaucetSendCode> = {
    insufficient_funds: 'insufficient_faucet_balance_tx',
    nonce_conflict: 'nonce_conflict',
    failed: 'faucet_request_failed',
    unknown: 'faucet_request_failed',
  };

  const send = async ({ faucetId, address, turnstileToken, ip }: FaucetSendInput): Promise<FaucetSendResult> => {
    const network = byId.get(faucetId);
    if (!network) return unsupported();
    if (!isAddress(address, { strict: false })) return failure('invalid_address');
    // A deprecated network drips nothing whatever the token, so it answers before the token is spent.
    if (network.deprecated) return deprecated(network);
    const recipient = getAddress(address);

    // 4. CAPTCHA.
    const captcha = await deps.captcha.verify({ token: turnstileToken, remoteIp: ip });
    if (!captcha.ok) return 'unavailable' in captcha ? failure('turnstile_unavailable') : failure('turnstile_failed', { details: captcha.details });

    // 5. rate limits: the address is reserved before anything is sent, atomically, so
    // concurrent requests for one address cannot both get past this point.
    const now = clock();
    const reserved = await deps.store.reserveAddress({ networkId: network.id, address: recipient, windowMs: network.rateWindowMs, now });
    if (!reserved.ok) return failure('rate_limit_exceeded', { resetAt: reserved.resetAt.toISOString(), limit: 'address' });
    const reservation: AddressReservation = reserved.reservation;
    // Unknown clients share one bucket: an unknown address is never a way around the limit.
    const ipKey = deps.hashIp(ipBucketOf(ip, deps.ipv6PrefixLength));
    let ipSlot: IpSlot | null = null;
    const perIp = async (): Promise<Refusal | null> => {
      if (!deps.perIpLimit) return null;
      const taken = await deps.store.takeIpSlot({ networkId: network.id, ipHash: ipKey, ...deps.perIpLimit, now });
      if (!taken.ok) return failure('rate_limit_exceeded', { resetAt: taken.resetAt.toISOString(), limit: 'network' });
      ipSlot = taken.slot;
      return null;
    };

    let attempt: DripAttempt;
    try {
      attempt = (await perIp()) ?? (await dripReserved(network, recipient, reservation, ip ? ipKey : null));
    } catch (error) {
      attempt = failure('faucet_request_failed', { cause: error });
    }
    const outcome = attempt.ok ? attempt.outcome : null;
    if (!outcome || (!outcome.ok && outcome.reason !== 'unknown')) {
      // Nothing reached the chain: hand the limits back so the caller may retry.
      await deps.store.releaseAddress(reservation);
      if (ipSlot) await deps.store.returnIpSlot(ipSlot);
    }
    if (!attempt.ok) return attempt;
    const { chain } = attempt;
    if (!attempt.outcome.ok) {
      const failed = attempt.outcome;
      if (failed.reason === 'unknown') {
        // It may still be mined: the reservation holds, the ledger row stays pending, and
        // reconcile() settles both from the chain.
        return failure('faucet_request_failed', {
          cause: failed.error,
          message: `The node did not answer the broadcast of ${failed.hash}; it may still be mined. Poll the status of that hash before asking again.`,
        });
      }
      const code = outcomeCode[failed.reason];
      try {
        if (attempt.signedHash) await deps.store.settleDrip(attempt.signedHash, { outcome: 'failed', statusCode: code });
        else
          await deps.store.recordDrip({
            networkId: network.id,
            address: recipient,
            amountWei: network.dripWei,
            txHash: null,
            ipHash: ip ? ipKey : null,
            createdAt: clock(),
            outcome: 'failed',
            statusCode: code,
          });
      } catch (error) {
        logError(`recording a failed drip on ${network.id} failed`, error);
      }
      return failure(code, { cause: failed.error });
    }
    const { hash } = attempt.outcome;
    // The drip is on its way and its write-ahead records are on disk: the answer need not wait
    // for the bookkeeping, and a fault in it is logged, never answered (reconcile() finishes it).
    void Promise.all([deps.store.settleDrip(hash, { outcome: 'sent', statusCode: null }), deps.store.confirmAddress(reservation, clock())]).catch(
      (error: unknown) => logError(`recording drip ${hash} on ${network.id} failed`, error),
    );
    const explorerUrl = chain.explorerUrl(hash);
    return {
      ok: true,
      body: { success: true, transactionHash: hash, amount: network.dripAmount, recipient, ...(explorerUrl ? { explorerUrl } : {}), statusCode: 'success' },
    };
  };

  const status = async ({ faucetId, transactionHash, ip }: FaucetStatusInput): Promise<FaucetStatusResult> => {
    const network = byId.get(faucetId);
    if (!network) return unsupported();
    if (!/^0x[0-9a-fA-F]{64}$/.test(transactionHash)) return failure('invalid_transaction_hash');
    const hash = transactionHash.toLowerCase() as Hex;
    const cacheKey = `${network.id}:${hash}`;
    const final = finalStatuses.get(cacheKey);
    if (final) return { ok: true, body: final };
    // Only questions the node must answer are limited: a final answer costs it nothing.
    const allowed = pollLimiter?.take(ipBucketOf(ip, deps.ipv6PrefixLength), clock().getTime());
    if (allowed && !allowed.ok) return failure('rate_limit_exceeded', { resetAt: new Date(allowed.retryAt).toISOString(), limit: 'polls' });
    try {
      const chain = await deps.chains.get(network);
      if (!chain) {
        return failure('status_check_failed', { message: `${network.name} has no RPC endpoint here, so its transactions cannot be looked up.` });
      }
      // A drip this faucet replaced after the node dropped it is answered by its replacement.
      const answeredHash = (await deps.store.replacementOf(hash)) ?? hash;
      const receipt = await chain.receiptStatus(answeredHash);
      const facts = { transactionHash: answeredHash, chainId: chain.chainId, chainName: network.name };
      if (receipt === 'pending') return { ok: true, body: { status: 'pending', success: true, ...facts } };
      const explorerUrl = chain.explorerUrl(answeredHash);
      const body: FaucetTransactionStatus = {
        status: receipt === 'success' ? 'success' : 'failed',
        mined: true,
        ...facts,
        ...(explorerUrl ? { explorerUrl } : {}),
      };
      finalStatuses.set(cacheKey, body);
      return { ok: true, body };
    } catch (error) {
      return failure('status_check_failed', { cause: error });
    }
  };

  const reconcile = async (): Promise<number> => {
    const before = new Date(clock().getTime() - settleAfterMs);
    let settled = 0;
    for (const { reservation, txHash } of await deps.store.unsettledReservations(before)) {
      const network = byId.get(reservation.networkId);
      try {
        if (txHash === null) {
          // Nothing was signed: nothing can have left.
          await deps.store.releaseAddress(reservation);
          settled++;
          continue;
        }
        const chain = network ? await deps.chains.get(network) : null;
        // A drip replaced after the node dropped it travels under its replacement's hash.
        const current = (await deps.store.replacementOf(txHash)) ?? txHash;
        if (!chain || chain.isInFlight(current)) continue;
        if (await chain.hasTransaction(current)) {
          await deps.store.confirmAddress(reservation, clock());
          await deps.store.settleDrip(current, { outcome: 'sent', statusCode: null });
        } else {
          await deps.store.releaseAddress(reservation);
          await deps.store.settleDrip(current, { outcome: 'failed', statusCode: 'faucet_request_failed' });
        }
        settled++;
      } catch (error) {
        // The node cannot be asked now: the next round tries again.
        logError(`settling the reservation of ${reservation.address} on ${reservation.networkId} failed`, error);
      }
    }
    // This ledger's own pending rows whose reservation another process settled.
    for (const drip of await deps.store.pendingDrips(before)) {
      const network = byId.get(drip.networkId);
      const chain = network ? await deps.chains.get(network).catch(() => null) : null;
      if (!chain || !drip.txHash || chain.isInFlight(drip.txHash)) continue;
      const known = await chain.hasTransaction(drip.txHash).catch(() => null);
      if (known === null) continue;
      await deps.store.settleDrip(drip.txHash, known ? { outcome: 'sent', statusCode: null } : { outcome: 'failed', statusCode: 'faucet_request_failed' });
    }
    return settled;
  };

  return {
    async send(input) {
      try {
        return await send(input);
      } catch (error) {
        // A store or CAPTCHA service fault outside the broadcast: retryable, and nothing was sent.
        return failure('faucet_request_failed', { cause: error });
      }
    },
    status,
    reconcile,
  };
}

/** The recipient's code refuses the drip, or needs more gas than a drip pays for. */
function recipientRefuses(network: FaucetNetwork) {
  return failure('invalid_address', {
    message: `The recipient does not accept a plain transfer within ${network.maxDripGas} gas on ${network.name}.`,
    hint: 'Request to an externally owned account, or a contract whose receive() costs less gas.',
  });
}

function defaultLogError(message: string, error: unknown): void {
  console.error(JSON.stringify({ level: 'error', component: 'faucet', message, cause: describeCause(error) }));
}
