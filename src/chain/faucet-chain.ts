import { createPublicClient, defineChain, http, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { FaucetNetwork } from './networks.ts';
import { createSender, type CrossProcessLock, type FeeParams, type SendOutcome } from './sender.ts';

// One faucet network as the faucet service sees it: balances, a fee quote for the drip, the
// wallet's sender, and receipts. viem does the JSON-RPC, signing and fee reads.

export type TransferQuote = FeeParams & {
  gas: bigint;
  /** The most the transfer can cost in fees (gas × max price): what the node checks the balance against. */
  maxFee: bigint;
};

export type ReceiptStatus = 'pending' | 'success' | 'reverted';

export interface FaucetChain {
  readonly network: FaucetNetwork;
  readonly chainId: number;
  readonly faucetAddress: Address;
  /** `${explorer}/tx/${hash}` on a real network with an explorer; local devnets have none. */
  explorerUrl(hash: Hex): string | undefined;
  getBalance(address: Address): Promise<bigint>;
  quoteTransfer(to: Address, value: bigint): Promise<TransferQuote>;
  transfer(to: Address, value: bigint, quote: TransferQuote): Promise<SendOutcome>;
  /** `pending` while the node has no receipt for the hash. */
  receiptStatus(hash: Hex): Promise<ReceiptStatus>;
}

export interface FaucetChainOptions {
  network: FaucetNetwork & { chainId: number };
  rpcUrl: string;
  privateKey: Hex;
  /** A local anvil devnet: its hashes mean nothing on the real network's explorer. */
  localDevnet: boolean;
  crossProcessLock?: CrossProcessLock;
  maxNonceRetries?: number;
}

/** Connects and checks that the endpoint serves the network's chain before anything is signed for it. */
export async function connectFaucetChain(options: FaucetChainOptions): Promise<FaucetChain> {
  const { network, rpcUrl, localDevnet } = options;
  const chain = defineChain({
    id: network.chainId,
    name: network.name,
    nativeCurrency: { name: network.symbol, symbol: network.symbol, decimals: network.decimals },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client: PublicClient = createPublicClient({ chain, transport: http(rpcUrl) });
  const servedChainId = await client.getChainId();
  if (servedChainId !== network.chainId) {
    throw new Error(`the RPC endpoint of ${network.id} serves chain ${servedChainId}, expected ${network.chainId}`);
  }
  const account = privateKeyToAccount(options.privateKey);
  const sender = createSender({
    client,
    account,
    chainId: network.chainId,
    crossProcessLock: options.crossProcessLock,
    maxNonceRetries: options.maxNonceRetries,
  });
  const explorer = !localDevnet && network.explorer ? network.explorer.replace(/\/+$/, '') : null;

  return {
    network,
    chainId: network.chainId,
    faucetAddress: account.address,
    explorerUrl: (hash) => (explorer ? `${explorer}/tx/${hash}` : undefined),
    getBalance: (address) => client.getBalance({ address }),
    async quoteTransfer(to, value) {
      const [block, gas] = await Promise.all([
        client.getBlock({ blockTag: 'latest' }),
        client.estimateGas({ account: account.address, to, value }),
      ]);
      // EIP-1559 where the chain has a base fee; legacy gas price otherwise.
      if (block.baseFeePerGas != null) {
        const maxPriorityFeePerGas = await client.estimateMaxPriorityFeePerGas();
        // Twice the base fee survives several full blocks while the send waits in the queue.
        const maxFeePerGas = block.baseFeePerGas * 2n + maxPriorityFeePerGas;
        return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas, gas, maxFee: gas * maxFeePerGas };
      }
      const gasPrice = await client.getGasPrice();
      return { type: 'legacy', gasPrice, gas, maxFee: gas * gasPrice };
    },
    transfer: (to, value, quote) => {
      const fees: FeeParams =
        quote.type === 'eip1559'
          ? { type: 'eip1559', maxFeePerGas: quote.maxFeePerGas, maxPriorityFeePerGas: quote.maxPriorityFeePerGas }
          : { type: 'legacy', gasPrice: quote.gasPrice };
      return sender.send({ to, value, gas: quote.gas, fees });
    },
    async receiptStatus(hash) {
      const receipt = await client.request({ method: 'eth_getTransactionReceipt', params: [hash] });
      if (!receipt) return 'pending';
      return receipt.status === '0x1' ? 'success' : 'reverted';
    },
  };
}
