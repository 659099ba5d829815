import { createPublicClient, defineChain, http, type Address, type Hex, type PublicClient } from 'viem';
import type { FaucetNetwork } from './networks.ts';
import { createTransferSigner, type FeeParams } from './transfer-signer.ts';
import { createSender, type CrossProcessLock, type SendOutcome, type SignedTransfer } from './sender.ts';

// One faucet network as the faucet service sees it: what a drip decision needs to know, the
// wallet's sender, and receipts. viem does the JSON-RPC (calls made in the same tick go out as
// one JSON-RPC batch), signing and fee reads.
//
// Round trips per drip. Fee data, the wallet's balance and the gas of a plain transfer are read
// at most once per `feeMaxAgeMs` (about a block) for every drip in that time, and the balance is
// then counted down locally by what each drip may cost; a node's refusal for funds re-reads it.
// What depends on the recipient (its balance, whether it has code) is read per drip, in one
// batch; the gas of a transfer to code is estimated for that recipient.

type TransferQuote = FeeParams & {
  gas: bigint;
  /** The most the transfer can cost in fees (gas × max price): what the node checks the balance against. */
  maxFee: bigint;
};

/** What a drip decision needs: read together, fees and the wallet's balance at most about a block old. */
export interface TransferFacts {
  quote: TransferQuote;
  recipientBalance: bigint;
  /** The wallet's balance less what drips sent since it was read may cost. */
  walletBalance: bigint;
}

export type ReceiptStatus = 'pending' | 'success' | 'reverted';

export interface FaucetChain {
  readonly network: FaucetNetwork;
  readonly chainId: number;
  readonly faucetAddress: Address;
  /** `${explorer}/tx/${hash}` on a real network with an explorer; local devnets have none. */
  explorerUrl(hash: Hex): string | undefined;
  prepareTransfer(to: Address, value: bigint): Promise<TransferFacts>;
  /** `beforeBroadcast` is the caller's write-ahead record of the signed hash (see src/chain/sender.ts). */
  transfer(to: Address, value: bigint, quote: TransferQuote, beforeBroadcast?: (tx: SignedTransfer) => Promise<void>): Promise<SendOutcome>;
  /** `pending` while the node has no receipt for the hash. */
  receiptStatus(hash: Hex): Promise<ReceiptStatus>;
  /** Whether the node has the transaction, pending or mined. Throws when it cannot be asked. */
  hasTransaction(hash: Hex): Promise<boolean>;
  /** True while this process's sender may still get the transaction mined. */
  isInFlight(hash: Hex): boolean;
  /** Stops the sender's background watch. */
  close(): Promise<void>;
}

export interface FaucetChainOptions {
  network: FaucetNetwork & { chainId: number };
  rpcUrl: string;
  privateKey: Hex;
  /** A local anvil devnet: its hashes mean nothing on the real network's explorer. */
  localDevnet: boolean;
  crossProcessLock?: CrossProcessLock;
  maxNonceRetries?: number;
  /** How long fee data and the wallet balance are reused (default 1 s). */
  feeMaxAgeMs?: number;
  /** How often the sender checks its transactions in flight against the node (default 10 s). */
  watchIntervalMs?: number;
  onReplaced?: (original: Hex, replacement: Hex) => void;
  logError?: (message: string, error: unknown) => void;
}

interface FeeState {
  /** The quote without the per-recipient gas. */
  fees: FeeParams;
  /** What a transfer to an account without code costs here (21,000 on L1; L2s may add their L1 data cost). */
  plainTransferGas: bigint;
  walletBalance: bigint;
  /** What drips since the balance was read may cost: value + gas × max price each. */
  committed: bigint;
  readAt: number;
}

/** Connects and checks that the endpoint serves the network's chain before anything is signed for it. */
export async function connectFaucetChain(options: FaucetChainOptions): Promise<FaucetChain> {
  const { network, rpcUrl, localDevnet } = options;
  const feeMaxAgeMs = options.feeMaxAgeMs ?? 1_000;
  const chain = defineChain({
    id: network.chainId,
    name: network.name,
    nativeCurrency: { name: network.symbol, symbol: network.symbol, decimals: network.decimals },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client: PublicClient = createPublicClient({ chain, transport: http(rpcUrl, { batch: { batchSize: 100 } }) });
  const servedChainId = await client.getChainId();
  if (servedChainId !== network.chainId) {
    throw new Error(`the RPC endpoint of ${network.id} serves chain ${servedChainId}, expected ${network.chainId}`);
  }
  const signer = createTransferSigner(options.privateKey);
  const account = { address: signer.address };
  const sender = createSender({
    client,
    signer,
    chainId: network.chainId,
    crossProcessLock: options.crossProcessLock,
    maxNonceRetries: options.maxNonceRetries,
    watchIntervalMs: options.watchIntervalMs,
    onReplaced: options.onReplaced,
    logError: options.logError,
    selfTransferGas: async () => (await currentFeeState()).plainTransferGas,
  });
  const explorer = !localDevnet && network.explorer ? network.explorer.replace(/\/+$/, '') : null;

  const readFeeState = async (): Promise<FeeState> => {
    // One batch: the block (base fee), the wallet's balance, and what a plain transfer costs.
    const [block, walletBalance, plainTransferGas] = await Promise.all([
      client.getBlock({ blockTag: 'latest' }),
      client.getBalance({ address: account.address, blockTag: 'pending' }),
      client.estimateGas({ account: account.address, to: account.address, value: 1n }),
    ]);
    const state = { walletBalance, plainTransferGas, committed: 0n, readAt: Date.now() };
    // EIP-1559 where the chain has a base fee; legacy gas price otherwise.
    if (block.baseFeePerGas != null) {
      const maxPriorityFeePerGas = await client.estimateMaxPriorityFeePerGas();
      // Twice the base fee survives several full blocks while the send waits in the queue.
      const maxFeePerGas = block.baseFeePerGas * 2n + maxPriorityFeePerGas;
      return { ...state, fees: { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas } };
    }
    return { ...state, fees: { type: 'legacy', gasPrice: await client.getGasPrice() } };
  };
  let feeState: Promise<FeeState> | null = null;
  let feeStateAt = 0;
  /** Shared by every drip within feeMaxAgeMs; a failed read is not kept. */
  const currentFeeState = (fresh = false) => {
    if (fresh || !feeState || Date.now() - feeStateAt > feeMaxAgeMs) {
      feeStateAt = Date.now();
      feeState = readFeeState();
      feeState.catch(() => (feeState = null));
    }
    return feeState;
  };

  return {
    network,
    chainId: network.chainId,
    faucetAddress: account.address,
    explorerUrl: (hash) => (explorer ? `${explorer}/tx/${hash}` : undefined),
    async prepareTransfer(to, value) {
      const [state, recipientBalance, code] = await Promise.all([currentFeeState(), client.getBalance({ address: to }), client.getCode({ address: to })]);
      // Only code can make a transfer cost more than a plain one: that alone is estimated.
      const gas = code ? await client.estimateGas({ account: account.address, to, value }) : state.plainTransferGas;
      const facts = (current: FeeState): TransferFacts => {
        const price = current.fees.type === 'eip1559' ? current.fees.maxFeePerGas : current.fees.gasPrice;
        return { quote: { ...current.fees, gas, maxFee: gas * price }, recipientBalance, walletBalance: current.walletBalance - current.committed };
      };
      const counted = facts(state);
      // Before a refusal for funds, a fresh read: the wallet may have been topped up since.
      if (counted.walletBalance >= value + counted.quote.maxFee) return counted;
      return facts(await currentFeeState(true));
    },
    async transfer(to, value, quote, beforeBroadcast) {
      const fees: FeeParams =
        quote.type === 'eip1559'
          ? { type: 'eip1559', maxFeePerGas: quote.maxFeePerGas, maxPriorityFeePerGas: quote.maxPriorityFeePerGas }
          : { type: 'legacy', gasPrice: quote.gasPrice };
      const state = feeState;
      const outcome = await sender.send({ to, value, gas: quote.gas, fees, beforeBroadcast });
      if (outcome.ok || outcome.reason === 'unknown') {
        // Counted against the balance read this drip was decided on (a newer read includes it).
        const current = await state?.catch(() => null);
        if (current) current.committed += value + quote.maxFee;
      } else if (outcome.reason === 'insufficient_funds') feeState = null;
      return outcome;
    },
    async receiptStatus(hash) {
      const receipt = await client.request({ method: 'eth_getTransactionReceipt', params: [hash] });
      if (!receipt) return 'pending';
      return receipt.status === '0x1' ? 'success' : 'reverted';
    },
    async hasTransaction(hash) {
      return (await client.request({ method: 'eth_getTransactionByHash', params: [hash] })) !== null;
    },
    isInFlight: (hash) => sender.isInFlight(hash),
    async close() {
      sender.close();
    },
  };
}
