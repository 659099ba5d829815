import { keccak256, parseTransaction, recoverTransactionAddress, type Hex } from 'viem';

// A signed transaction as eth_getTransactionByHash answers one not yet in a block (numbers in 0x
// hex, addresses lowercase, `blockHash`, `blockNumber` and `transactionIndex` null): what a
// DROPPED_TRANSACTION delivery carries, read from the bytes the app broadcast, since the node that
// dropped it no longer has it. Pure but for the signature's recovery.

const TYPE_CODES: Record<string, string> = { legacy: '0x0', eip2930: '0x1', eip1559: '0x2', eip4844: '0x3', eip7702: '0x4' };

const hex = (value: bigint | number) => `0x${value.toString(16)}`;

/** The signer and nonce of a signed transaction, or null when its bytes are not one. */
export async function senderAndNonce(raw: string): Promise<{ sender: string; nonce: bigint } | null> {
  try {
    const parsed = parseTransaction(raw as Hex);
    const sender = await recoverTransactionAddress({ serializedTransaction: raw as never });
    return { sender: sender.toLowerCase(), nonce: BigInt(parsed.nonce ?? 0) };
  } catch {
    return null;
  }
}

/** The transaction as a node would show it pending, with its signer; null when the bytes are not a signed transaction. */
export async function pendingTransactionJson(raw: string): Promise<Record<string, unknown> | null> {
  const signed = await senderAndNonce(raw);
  if (!signed) return null;
  const parsed = parseTransaction(raw as Hex);
  const fees =
    parsed.maxFeePerGas !== undefined
      ? { maxFeePerGas: hex(parsed.maxFeePerGas), maxPriorityFeePerGas: hex(parsed.maxPriorityFeePerGas ?? 0n) }
      : { gasPrice: hex(parsed.gasPrice ?? 0n) };
  return {
    hash: keccak256(raw as Hex),
    from: signed.sender,
    nonce: hex(signed.nonce),
    to: parsed.to?.toLowerCase() ?? null,
    value: hex(parsed.value ?? 0n),
    gas: hex(parsed.gas ?? 0n),
    ...fees,
    input: parsed.data ?? '0x',
    type: TYPE_CODES[parsed.type ?? 'legacy'] ?? '0x0',
    ...(parsed.chainId !== undefined && { chainId: hex(parsed.chainId) }),
    ...(parsed.v !== undefined && { v: hex(parsed.v) }),
    ...(parsed.yParity !== undefined && { yParity: hex(parsed.yParity) }),
    r: parsed.r ?? null,
    s: parsed.s ?? null,
    blockHash: null,
    blockNumber: null,
    transactionIndex: null,
  };
}
