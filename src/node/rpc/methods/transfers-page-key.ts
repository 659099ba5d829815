// The pageKey of crucible_getAssetTransfers answers (docs/token-data.md#crucible_getassettransfers): opaque to callers, it is where
// the page's last transfer stands in the index's order (its block, its transaction's position, and
// its place in the transaction: the transaction's own value, a call inside it, or a log) and the
// order it was read in; the next page starts after it. Only a key this method gave is accepted.

/**
 * Where a transfer of either kind stands in the transfer index's order: by block, transaction, then
 * within the transaction its own value, the calls inside it, its logs.
 */
export interface TransferPosition {
  block: number;
  transactionIndex: number;
  /** 0: the transaction's own value (external); 1: a call inside it (internal); 2: a log (a token transfer). */
  part: 0 | 1 | 2;
  /** The call's trace index (0 for external), or the log's index. */
  index: number;
}

export interface TransfersPageKey extends TransferPosition {
  order: 'asc' | 'desc';
}

const KEY_TEXT = /^(a|d)\.(0|[1-9]\d{0,15})\.(0|[1-9]\d{0,9})\.([012])\.(0|[1-9]\d{0,9})$/;

export function encodeTransfersPageKey(key: TransfersPageKey): string {
  return Buffer.from(`${key.order[0]}.${key.block}.${key.transactionIndex}.${key.part}.${key.index}`).toString('base64url');
}

/** The position a pageKey names, or null when it is not one this method gave (only the canonical spelling is). */
export function decodeTransfersPageKey(pageKey: string): TransfersPageKey | null {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(pageKey)) return null;
  const text = Buffer.from(pageKey, 'base64url').toString('latin1');
  const match = KEY_TEXT.exec(text);
  if (!match || Buffer.from(text).toString('base64url') !== pageKey) return null;
  const block = Number(match[2]);
  if (!Number.isSafeInteger(block)) return null;
  return {
    order: match[1] === 'a' ? 'asc' : 'desc',
    block,
    transactionIndex: Number(match[3]),
    part: Number(match[4]) as TransferPosition['part'],
    index: Number(match[5]),
  };
}
