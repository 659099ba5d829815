import type { MassMint } from './index-evidence.ts';

// Spam from stated rules (docs/nft-data.md#spam-rules): each rule is a pure function of facts read from the index and
// the chain, and its name is what `spamClassifications` lists when it matches. A contract is spam
// when any rule matches; whether it is spam is unknown (null) until the index holds an NFT transfer
// of it. The rules and their reasons are documented in src/nfts/README.md.

export interface SpamFacts {
  name: string | null;
  symbol: string | null;
  /** NFT transfers the index holds for the contract. */
  nftTransfers: number;
  largestFreshMint: MassMint | null;
  /** Host of a held token's http(s) URI, lowercase. */
  tokenUriHost: string | null;
}

export interface SpamSettings {
  /** MassAirdrop: the fewest newcomers one minting transaction must reach. */
  massAirdropMinRecipients: number;
  /** DeniedTokenUriHost: hosts (and their subdomains) whose token URIs mark a contract as spam. */
  deniedUriHosts: readonly string[];
}

interface SpamRule {
  /** The `spamClassifications` entry. */
  name: string;
  matches(facts: SpamFacts, settings: SpamSettings): boolean;
}

/** A URL, a bare domain with a common TLD, or words that bait a click or a signature. */
const BAIT_PATTERNS: readonly RegExp[] = [
  /\b(?:https?:\/\/|www\.)/i,
  /\b[a-z0-9-]+\.(?:com|net|org|io|xyz|app|site|online|top|club|vip|fun|live|link|claims?|finance|pro|gift|me|co)\b/i,
  /\b(?:claim(?:s|ed|able)?|visit|rewards?|voucher|giveaway|free[\s-]*mint|bonus|redeem|airdrop(?:s|ped)?)\b/i,
];

/** Tickers of well-known fungible tokens: an NFT contract that takes one poses as the token. */
const FUNGIBLE_TICKERS = new Set([
  'ETH',
  'WETH',
  'BTC',
  'WBTC',
  'USDT',
  'USDC',
  'DAI',
  'BNB',
  'MATIC',
  'POL',
  'ARB',
  'OP',
  'SOL',
  'LINK',
  'UNI',
  'SHIB',
  'PEPE',
]);

/** Cyrillic and Greek capitals that look like Latin ones: USDТ with a Cyrillic Т. */
const HOMOGLYPHS: Readonly<Record<string, string>> = {
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  І: 'I',
  Ѕ: 'S',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};

/** A ticker passed off as another: `$ETH`, a fungible token's ticker, or Latin mixed with look-alike letters. */
function lookalikeTicker(symbol: string): boolean {
  const trimmed = symbol.trim();
  if (/^\$[A-Za-z]/.test(trimmed)) return true;
  const folded = Array.from(trimmed.toUpperCase(), (character) => HOMOGLYPHS[character] ?? character).join('');
  if (FUNGIBLE_TICKERS.has(folded)) return true;
  return folded !== trimmed.toUpperCase() && /[A-Za-z]/.test(trimmed);
}

const hostDenied = (host: string, denied: readonly string[]) => denied.some((entry) => host === entry || host.endsWith(`.${entry}`));

export const SPAM_RULES: readonly SpamRule[] = [
  {
    name: 'MassAirdrop',
    matches: (facts, settings) => (facts.largestFreshMint?.recipients ?? 0) >= settings.massAirdropMinRecipients,
  },
  {
    name: 'SuspiciousName',
    matches: ({ name, symbol }) =>
      [name, symbol].some((text) => text !== null && BAIT_PATTERNS.some((pattern) => pattern.test(text))) || (symbol !== null && lookalikeTicker(symbol)),
  },
  {
    name: 'DeniedTokenUriHost',
    matches: (facts, settings) => facts.tokenUriHost !== null && hostDenied(facts.tokenUriHost, settings.deniedUriHosts),
  },
];

interface SpamVerdict {
  /** null: the index holds no NFT transfer of the contract yet. */
  isSpam: boolean | null;
  /** The rules that matched, in the order above. */
  spamClassifications: string[];
}

export function classifySpam(facts: SpamFacts, settings: SpamSettings): SpamVerdict {
  if (facts.nftTransfers === 0) return { isSpam: null, spamClassifications: [] };
  const matched = SPAM_RULES.filter((rule) => rule.matches(facts, settings)).map((rule) => rule.name);
  return { isSpam: matched.length > 0, spamClassifications: matched };
}
