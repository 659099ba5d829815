import { getAddress, isAddress, type Address, type Hex } from 'viem';
import { classifyNodeError } from '../chain/node-errors.ts';
import type { FaucetChain } from '../chain/faucet-chain.ts';
import type { MainnetReader } from '../chain/mainnet.ts';
import type { FaucetNetwork } from '../chain/networks.ts';
import type { SendOutcome } from '../chain/sender.ts';
import type { AddressReservation, DripLedger, IpSlot, LimitStore } from '../store/types.ts';
import type { CaptchaVerifier } from './captcha.ts';
import { describeCause } from './cause.ts';
import { failure, type FaucetSendCode, type FaucetSendResult, type FaucetStatusResult } from './results.ts';

// The faucet's decision chain (issue 4, steps 4–9; steps 1–3 are the HTTP layer's): plain
// code over small interfaces, so every step is tested against real SQLite, anvil and Redis.

export interface FaucetDeps {
  networks: readonly FaucetNetwork[];
  captcha: CaptchaVerifier;
  store: LimitStore & DripLedger;
  chains: { get(network: FaucetNetwork): Promise<FaucetChain | null> };
  /** null: no anti-sybil check. */
  antiSybil: { reader: MainnetReader; minBalanceWei: bigint; minTxCount: number } | null;
  /** null: no per-IP limit. */
  perIpLimit: { max: number; windowMs: number } | null;
  hashIp: (ip: string) => string;
  clock?: () => Date;
  /** Where faults that cannot change the answer go (default: one JSON line on stderr). */
  logError?: (message: string, error: unknown) => void;
}

export interface FaucetSendInput {
  faucetId: string;
  /** Already checked by the HTTP layer against ^0x[a-fA-F0-9]{40}$ (spec 2.1). */
  address: string;
  turnstileToken: string;
  /** The client IP as the edge reports it; null when unknown (no per-IP limit then). */
  ip: string | null;
}

export interface FaucetStatusInput {
  faucetId: string;
  transactionHash: string;
}

export interface Faucet {
  /** Faucet ids in order, for `supportedChains` and the OpenAPI enum. */
  readonly networkIds: string[];
  send(input: FaucetSendInput): Promise<FaucetSendResult>;
  status(input: FaucetStatusInput): Promise<FaucetStatusResult>;
}

type Refusal = Exclude<FaucetSendResult, { ok: true }>;
/** How far a send got with its reservation held: refused before the broadcast, or broadcast. */
type DripAttempt = Refusal | { ok: true; chain: FaucetChain; outcome: SendOutcome };

export function createFaucet(deps: FaucetDeps): Faucet {
  const clock = deps.clock ?? (() => new Date());
  const logError = deps.logError ?? defaultLogError;
  const networkIds = deps.networks.map((n) => n.id);
  const byId = new Map(deps.networks.map((n) => [n.id, n]));
  // Where to send callers of a deprecated network: the flagship testnet, else any funded one.
  const fundedSuggestion = byId.get('ethereum-sepolia') ?? deps.networks.find((n) => !n.deprecated);

  const unsupported = () => failure('unsupported_faucet', { supportedChains: networkIds });

  const deprecated = (network: FaucetNetwork) =>
    failure('insufficient_faucet_balance', {
      message: `${network.name} is deprecated and no longer funded.`,
      hint: fundedSuggestion ? `Request from a funded network instead, such as ${fundedSuggestion.name} (${fundedSuggestion.id}).` : undefined,
    });

  /** Steps 6–9, with the address (and IP) reservation held. */
  const dripReserved = async (network: FaucetNetwork, recipient: Address): Promise<DripAttempt> => {
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
    // 7. recipient cap.
    if ((await chain.getBalance(recipient)) > network.maxBalanceWei) return failure('max_balance_exceeded');
    // 8. the wallet must cover drip + the most the fee can be.
    const faucetBalance = await chain.getBalance(chain.faucetAddress);
    if (faucetBalance < network.dripWei) return failure('insufficient_faucet_balance');
    const quote = await chain.quoteTransfer(recipient, network.dripWei).catch((error: unknown) => {
      // Some nodes refuse to estimate gas for a transfer the wallet cannot pay for.
      if (classifyNodeError(error) === 'insufficient_funds') return null;
      throw error;
    });
    if (!quote || faucetBalance < network.dripWei + quote.maxFee) return failure('insufficient_faucet_balance');
    // 9. broadcast.
    return { ok: true, chain, outcome: await chain.transfer(recipient, network.dripWei, quote) };
  };

  const outcomeCode: Record<Exclude<SendOutcome, { ok: true }>['reason'], FaucetSendCode> = {
    insufficient_funds: 'insufficient_faucet_balance_tx',
    nonce_conflict: 'nonce_conflict',
    failed: 'faucet_request_failed',
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
    if (!captcha.ok) return failure('turnstile_failed', { details: captcha.details });

    // 5. rate limits: the address is reserved before anything is sent, atomically, so
    // concurrent requests for one address cannot both get past this point.
    const now = clock();
    const reserved = await deps.store.reserveAddress({ networkId: network.id, address: recipient, windowMs: network.rateWindowMs, now });
    if (!reserved.ok) return failure('rate_limit_exceeded', { resetAt: reserved.resetAt.toISOString() });
    const reservation: AddressReservation = reserved.reservation;
    const ipHash = ip ? deps.hashIp(ip) : null;
    let ipSlot: IpSlot | null = null;
    const perIp = async (): Promise<Refusal | null> => {
      if (!deps.perIpLimit || !ipHash) return null;
      const taken = await deps.store.takeIpSlot({ networkId: network.id, ipHash, ...deps.perIpLimit, now });
      if (!taken.ok) return failure('rate_limit_exceeded', { resetAt: taken.resetAt.toISOString() });
      ipSlot = taken.slot;
      return null;
    };

    let attempt: DripAttempt;
    try {
      attempt = (await perIp()) ?? (await dripReserved(network, recipient));
    } catch (error) {
      attempt = failure('faucet_request_failed', { cause: error });
    }
    if (!attempt.ok || !attempt.outcome.ok) {
      // Nothing reached the chain: hand the limits back so the caller may retry.
      await deps.store.releaseAddress(reservation);
      if (ipSlot) await deps.store.returnIpSlot(ipSlot);
    }
    if (!attempt.ok) return attempt;
    const { chain, outcome } = attempt;

    const record = { networkId: network.id, address: recipient, amountWei: network.dripWei, ipHash, createdAt: clock() };
    if (!outcome.ok) {
      const code = outcomeCode[outcome.reason];
      await deps.store.recordDrip({ ...record, txHash: null, outcome: 'failed', statusCode: code });
      return failure(code, { cause: outcome.error });
    }
    // The drip is on its way: from here a bookkeeping fault is logged, never answered as a failure.
    // The ledger row goes first; if confirming then fails, the reservation still holds the address.
    try {
      await deps.store.recordDrip({ ...record, txHash: outcome.hash, outcome: 'sent', statusCode: null });
      await deps.store.confirmAddress(reservation, record.createdAt);
    } catch (error) {
      logError(`recording drip ${outcome.hash} on ${network.id} failed`, error);
    }
    const explorerUrl = chain.explorerUrl(outcome.hash);
    return {
      ok: true,
      body: {
        success: true,
        transactionHash: outcome.hash,
        amount: network.dripAmount,
        recipient,
        ...(explorerUrl ? { explorerUrl } : {}),
        statusCode: 'success',
      },
    };
  };

  const status = async ({ faucetId, transactionHash }: FaucetStatusInput): Promise<FaucetStatusResult> => {
    const network = byId.get(faucetId);
    if (!network) return unsupported();
    if (!/^0x[0-9a-fA-F]{64}$/.test(transactionHash)) return failure('invalid_transaction_hash');
    const hash = transactionHash as Hex;
    try {
      const chain = await deps.chains.get(network);
      if (!chain) {
        return failure('status_check_failed', { message: `${network.name} has no RPC endpoint here, so its transactions cannot be looked up.` });
      }
      const receipt = await chain.receiptStatus(hash);
      const facts = { transactionHash: hash, chainId: chain.chainId, chainName: network.name };
      if (receipt === 'pending') return { ok: true, body: { status: 'pending', success: true, ...facts } };
      const explorerUrl = chain.explorerUrl(hash);
      return {
        ok: true,
        body: { status: receipt === 'success' ? 'success' : 'failed', mined: true, ...facts, ...(explorerUrl ? { explorerUrl } : {}) },
      };
    } catch (error) {
      return failure('status_check_failed', { cause: error });
    }
  };

  return {
    networkIds,
    async send(input) {
      try {
        return await send(input);
      } catch (error) {
        // A store or CAPTCHA service fault outside the broadcast: retryable, and nothing was sent.
        return failure('faucet_request_failed', { cause: error });
      }
    },
    status,
  };
}

function defaultLogError(message: string, error: unknown): void {
  console.error(JSON.stringify({ level: 'error', component: 'faucet', message, cause: describeCause(error) }));
}
