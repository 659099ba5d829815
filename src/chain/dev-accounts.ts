import type { Hex } from 'viem';
import { mnemonicToAccount, privateKeyToAddress } from 'viem/accounts';

// Anvil's (and Hardhat's) default dev wallet. Its keys are printed by every anvil start and
// published everywhere, so they fund local devnets and must never guard real funds.

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** Account 0 of DEV_MNEMONIC: the faucet wallet of local devnets (anvil funds it at genesis). */
export const DEV_FAUCET_PRIVATE_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/** Anvil prefunds this many accounts of DEV_MNEMONIC by default. */
const DEV_ACCOUNT_COUNT = 10;

let devAddresses: Set<string> | undefined;

/** True for a key of one of anvil's default accounts (derived once, on first call). */
export function isWellKnownDevKey(privateKey: Hex): boolean {
  devAddresses ??= new Set(
    Array.from({ length: DEV_ACCOUNT_COUNT }, (_, addressIndex) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex }).address.toLowerCase()),
  );
  return devAddresses.has(privateKeyToAddress(privateKey).toLowerCase());
}
