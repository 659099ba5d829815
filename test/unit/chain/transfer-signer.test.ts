import { parseGwei, recoverTransactionAddress, type TransactionSerializedEIP1559 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DEV_FAUCET_PRIVATE_KEY } from '../../../src/chain/dev-accounts.ts';
import { createTransferSigner } from '../../../src/chain/transfer-signer.ts';

// libsecp256k1 signs what viem's JavaScript signer signs: byte for byte (RFC 6979), for both
// kinds of fee the faucet sends with.

const account = privateKeyToAccount(DEV_FAUCET_PRIVATE_KEY);
const signer = createTransferSigner(DEV_FAUCET_PRIVATE_KEY);
const transfer = { chainId: 84532, to: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F' as const, value: 10n ** 17n, gas: 21_000n, nonce: 7 };

describe('createTransferSigner', () => {
  it('signs an EIP-1559 transfer exactly as viem does', async () => {
    const fees = { type: 'eip1559' as const, maxFeePerGas: parseGwei('3'), maxPriorityFeePerGas: parseGwei('1') };
    const [signed] = signer.sign([{ ...transfer, fees }]);
    expect(signed).toBe(await account.signTransaction({ ...transfer, ...fees }));
    expect(await recoverTransactionAddress({ serializedTransaction: signed as TransactionSerializedEIP1559 })).toBe(account.address);
  });

  it('signs a legacy (EIP-155) transfer exactly as viem does', async () => {
    const fees = { type: 'legacy' as const, gasPrice: parseGwei('2') };
    const signed = signer.sign([
      { ...transfer, fees },
      { ...transfer, nonce: 8, fees },
    ]);
    expect(signed).toEqual([await account.signTransaction({ ...transfer, ...fees }), await account.signTransaction({ ...transfer, nonce: 8, ...fees })]);
  });

  it('knows its address', () => {
    expect(signer.address).toBe(account.address);
  });
});
