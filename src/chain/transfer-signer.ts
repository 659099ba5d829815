import secp256k1 from 'secp256k1';
import { bytesToHex, hexToBytes, keccak256, serializeTransaction, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

// Signs a faucet wallet's transfers with libsecp256k1 (the `secp256k1` package ships it
// prebuilt): several times faster than viem's JavaScript signer, and signing is the largest CPU
// cost of a drip (BENCHMARKS.md, "Faucet: before and after the round-trip work"). The bytes are viem's: it serializes
// and hashes, and the signature is RFC 6979's, so the result equals account.signTransaction's.

/** The fee fields of a transfer: EIP-1559 where the network has a base fee, legacy elsewhere. */
export type FeeParams = { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { type: 'legacy'; gasPrice: bigint };

interface UnsignedTransfer {
  chainId: number;
  to: Address;
  value: bigint;
  gas: bigint;
  nonce: number;
  fees: FeeParams;
}

export interface TransferSigner {
  readonly address: Address;
  /** Serialized signed transactions, in the order given. */
  sign(transfers: readonly UnsignedTransfer[]): Hex[];
}

export function createTransferSigner(privateKey: Hex): TransferSigner {
  const key = hexToBytes(privateKey);
  return {
    address: privateKeyToAddress(privateKey),
    sign: (transfers) =>
      transfers.map(({ fees, ...rest }) => {
        const transaction = { ...rest, ...fees };
        const { signature, recid } = secp256k1.ecdsaSign(hexToBytes(keccak256(serializeTransaction(transaction))), key);
        // `v` for legacy (EIP-155) transactions, `yParity` for typed ones, as viem's own signer gives both.
        const r = bytesToHex(signature.subarray(0, 32));
        const s = bytesToHex(signature.subarray(32));
        return serializeTransaction(transaction, { r, s, v: 27n + BigInt(recid), yParity: recid });
      }),
  };
}
