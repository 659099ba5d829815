import { getAddress, keccak256, toHex, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

// Who acts in the local world. None of them is an anvil dev account: the faucet signs with
// account 0 and tests use account 1 as a third party, and tests assert both accounts' nonces.

/** The last 20 bytes of keccak256(label): an address no one holds a key to. */
const keylessAddress = (label: string): Address => getAddress(`0x${keccak256(toHex(label)).slice(-40)}`);

/**
 * Signs the world's deployments and hand-outs; funded with anvil_setBalance. The key is published
 * here, as anvil's are: it only ever acts on local devnets (production points at real chains and
 * deploys nothing), and the contracts' addresses depend on it (it owns them, through their
 * constructor arguments), so changing it moves the whole world.
 */
export const WORLD_DEPLOYER_KEY: Hex = keccak256(toHex('crucible:world-deployer'));
export const WORLD_DEPLOYER: Address = privateKeyToAddress(WORLD_DEPLOYER_KEY);

/**
 * The documented demo wallet, which holds some of every kind of token of the world, so the docs'
 * examples return real data. It is keyless (see keylessAddress): on a devnet only the world moves
 * its tokens (through anvil_impersonateAccount), so no reader's script signing with a published key
 * changes what the docs show, and faucet drips, which go to addresses people paste, never reach it.
 */
export const DEMO_WALLET: Address = keylessAddress('crucible:demo-wallet');

/** Other keyless holders, which trade among themselves and with the demo wallet so the index has history. */
export const WORLD_HOLDERS = {
  ada: keylessAddress('crucible:holder:ada'),
  ben: keylessAddress('crucible:holder:ben'),
  cai: keylessAddress('crucible:holder:cai'),
  /** Its last byte is 0xff: RevertingBalanceToken's `balanceOf` reverts for it. */
  fay: getAddress(`${keylessAddress('crucible:holder:fay').slice(0, -2)}ff`),
} as const satisfies Record<string, Address>;

/**
 * Who the world's marketplace pays besides sellers (market.ts): its fee goes to the treasury, the
 * relics' royalty to their creator. Keyless, and they never act: they only receive.
 */
export const MARKET_PAYEES = {
  treasury: keylessAddress('crucible:market:treasury'),
  relicsCreator: keylessAddress('crucible:relics:creator'),
} as const satisfies Record<string, Address>;

/**
 * Keyless senders of the native layer alone (native-layer.ts), which reads how far a devnet got from
 * their nonces: no other part of the world sends from them. The layer funds them.
 */
export const NATIVE_SENDERS = {
  dan: keylessAddress('crucible:holder:dan'),
  eve: keylessAddress('crucible:holder:eve'),
} as const satisfies Record<string, Address>;

/** The mass airdrop's recipients other than the demo wallet: keyless addresses that never did anything. */
export function airdropRecipients(count: number): Address[] {
  return Array.from({ length: count }, (_, i) => keylessAddress(`crucible:airdrop:${i}`));
}
