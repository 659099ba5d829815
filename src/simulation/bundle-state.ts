import { numberToHex, type Address, type Hex } from 'viem';

// How a bundle's transactions see each other's effects: each is traced on the block's state with
// the changes of the ones before it laid over it as a state override (geth's set, which
// debug_traceCall takes). The changes come from the prestateTracer in diff mode, which lists, for
// every account the transaction changed, what it was (`pre`) and what it became (`post`): a field
// or slot absent from `post` did not change, except a slot that became zero (it is in `pre` only),
// and an account in `pre` only is gone (self-destructed).

interface AccountState {
  balance?: Hex;
  nonce?: number | Hex;
  code?: Hex;
  storage?: Record<Hex, Hex>;
}

export interface PrestateDiff {
  pre: Record<Address, AccountState>;
  post: Record<Address, AccountState>;
}

interface AccountOverride {
  balance?: Hex;
  nonce?: Hex;
  code?: Hex;
  /** The whole storage (an account that was removed starts empty). */
  state?: Record<Hex, Hex>;
  /** Slots changed, the rest as they are. */
  stateDiff?: Record<Hex, Hex>;
}

export type StateOverride = Record<Address, AccountOverride>;

const ZERO_SLOT: Hex = `0x${'0'.repeat(64)}`;

/** Whether a value is a diff as the prestateTracer gives it with diffMode. */
export function isPrestateDiff(value: unknown): value is PrestateDiff {
  const diff = value as PrestateDiff | null;
  return typeof diff === 'object' && diff !== null && typeof diff.pre === 'object' && typeof diff.post === 'object';
}

/** `override` with one transaction's changes laid over it (a new object; the old one is left as it was). */
export function withChanges(override: StateOverride, diff: PrestateDiff): StateOverride {
  const next: StateOverride = { ...override };
  for (const [address, post] of Object.entries(diff.post) as Array<[Address, AccountState]>) {
    const account: AccountOverride = { ...next[address] };
    if (post.balance !== undefined) account.balance = post.balance;
    if (post.nonce !== undefined) account.nonce = typeof post.nonce === 'number' ? numberToHex(post.nonce) : post.nonce;
    if (post.code !== undefined) account.code = post.code;
    const slots: Record<Hex, Hex> = { ...post.storage };
    // A slot that became zero is left out of `post`.
    for (const slot of Object.keys(diff.pre[address]?.storage ?? {}) as Hex[]) if (!(slot in slots)) slots[slot] = ZERO_SLOT;
    if (Object.keys(slots).length > 0) {
      if (account.state) account.state = { ...account.state, ...slots };
      else account.stateDiff = { ...account.stateDiff, ...slots };
    }
    next[address] = account;
  }
  for (const address of Object.keys(diff.pre) as Address[]) {
    if (!(address in diff.post)) next[address] = { balance: '0x0', nonce: '0x0', code: '0x', state: {} };
  }
  return next;
}
