import { decodeAbiParameters, hexToBytes, type Hex } from 'viem';

// Decoding what token contracts answer (docs/token-data.md#crucible_gettokenmetadata), as pure functions: tokens differ (string or
// bytes32 names, uint8 or uint256 decimals, junk), and an answer that does not fit is unknown, not an error.

/** Characters a name or symbol keeps. */
const MAX_TOKEN_TEXT_LENGTH = 255;
/** Decimals above this are not a real token's: 10^78 exceeds uint256. */
const MAX_TOKEN_DECIMALS = 78;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `name()` or `symbol()`: an ABI `string`, or a `bytes32` (early tokens such as MKR); NULs trimmed, capped. Null when neither or empty. */
export function decodeTokenText(returnData: Hex): string | null {
  const bytes = hexToBytes(returnData);
  let text: string;
  try {
    if (bytes.length === 32) text = utf8.decode(bytes);
    else {
      // An ABI string is its offset, its length and its bytes: at least 64 bytes. `bytes` is encoded the same way and keeps them raw.
      const [raw] = decodeAbiParameters([{ type: 'bytes' }], returnData);
      text = utf8.decode(hexToBytes(raw));
    }
  } catch {
    return null;
  }
  const trimmed = text.replace(/^\0+|\0+$/g, '');
  if (trimmed === '') return null;
  const characters = Array.from(trimmed);
  return characters.length > MAX_TOKEN_TEXT_LENGTH ? characters.slice(0, MAX_TOKEN_TEXT_LENGTH).join('') : trimmed;
}

/** The first 32-byte word of an answer (Solidity's abi.decode ignores what follows), or null when shorter. */
export function firstWord(returnData: Hex): Hex | null {
  return returnData.length < 2 + 64 ? null : (`0x${returnData.slice(2, 66).toLowerCase()}` as Hex);
}

/** `decimals()`: uint8 or uint256; null when missing, short, or above 78. */
export function decodeTokenDecimals(returnData: Hex): number | null {
  const word = firstWord(returnData);
  if (word === null) return null;
  const decimals = BigInt(word);
  return decimals > BigInt(MAX_TOKEN_DECIMALS) ? null : Number(decimals);
}

/** What a revert says: the text of `Error(string)`, or the 4-byte selector of a custom error; null for a bare revert. */
export function revertReason(returnData: Hex): string | null {
  if (returnData.length < 2 + 8) return null;
  const selector = returnData.slice(0, 10);
  if (selector !== '0x08c379a0') return `error ${selector}`;
  try {
    const [reason] = decodeAbiParameters([{ type: 'string' }], `0x${returnData.slice(10)}`);
    return Array.from(reason).slice(0, MAX_TOKEN_TEXT_LENGTH).join('');
  } catch {
    return `error ${selector}`;
  }
}
