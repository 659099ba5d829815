// Every way Crucible says no, in one table (docs/errors.md): a code, the HTTP status of its answer,
// its JSON-RPC error code where the gateway answers it, the Error body's `code` where a refusal
// answers as its family there, its sentence and its next step. A CrucibleError
// (./crucible-error.ts) is one row with its facts; ./error-body.ts, ./json-rpc.ts and
// ./faucet-body.ts write it as each wire shape, and nothing else translates between them.

/**
 * Which limit a keyed call's 429 is (README, "Server limits"): the app's CU rate or monthly quota,
 * its account's CU rate, or the demo key's CU rate per client IP or per network.
 */
export type RateLimit =
  | { kind: 'app-rate'; computeUnitsPerSecond: number }
  | { kind: 'app-quota'; computeUnitsPerMonth: number }
  | { kind: 'account-rate'; computeUnitsPerSecond: number }
  | { kind: 'demo-ip'; computeUnitsPerSecond: number }
  | { kind: 'demo-network'; computeUnitsPerSecond: number };

function rateLimitText(limit: RateLimit): string {
  switch (limit.kind) {
    case 'app-rate':
      return `this app's rate of ${limit.computeUnitsPerSecond} compute units per second`;
    case 'app-quota':
      return `this app's monthly quota of ${limit.computeUnitsPerMonth} compute units`;
    case 'account-rate':
      return `this app's account's rate of ${limit.computeUnitsPerSecond} compute units per second, shared by its apps`;
    case 'demo-ip':
      return `the demo key's ${limit.computeUnitsPerSecond} compute units per second per client IP`;
    case 'demo-network':
      return `the demo key's ${limit.computeUnitsPerSecond} compute units per second on this network, shared by every client`;
  }
}

/** Whose bucket a call larger than its burst met, for the sentence that says so. */
function bucketText(limit: RateLimit): string {
  switch (limit.kind) {
    case 'app-rate':
    case 'app-quota':
      return "this app's bucket";
    case 'account-rate':
      return "the bucket this app's account shares among its apps";
    case 'demo-ip':
      return "the demo key's bucket per client IP";
    case 'demo-network':
      return "the demo key's bucket on this network, shared by every client";
  }
}

/** What a hint may name: where the surface is described, and a 405's methods. */
interface HintContext {
  documentationUrl: string;
  allow?: readonly string[];
}

export interface ErrorRow {
  /** The HTTP status: of the Error body, the FaucetError, and a single JSON-RPC request unless `rpc.status` says otherwise. */
  status: number;
  /** JSON-RPC: the error's `code`, and the HTTP status of a single request when it is not `status` (-32601 and -32602 answer 200). */
  rpc?: { code: number; status?: number };
  /** The Error body's `code` when it is not the row's own: a refusal of a keyed call answers as its family there. */
  bodyCode?: string;
  /** The sentence (a full stop ends it; JSON-RPC drops that), or how to write it from the facts. */
  message: string | ((args: never) => string);
  /** The next step, as the Error body and the FaucetError give it. */
  hint?: string | ((context: HintContext) => string);
  /** The FaucetError's `message`: detail, or advice to retry. */
  detail?: string;
}

const formatList = (items: readonly string[]) => (items.length <= 1 ? (items[0] ?? 'another method') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);

const internalErrorHint = 'Retry in a moment; if it keeps failing, report the X-Request-Id response header to the Crucible team.';
const limitReachedHint = 'Delete one you no longer need to make room, or ask the operator to raise the limit (`limit.name`).';

export const errorCodes = {
  // The Error body (docs/errors.md#error-body): the site API and the keyed REST products.
  not_found: {
    status: 404,
    message: (args?: { method: string; path: string }) =>
      args ? `No API operation matches ${args.method} ${args.path}.` : 'No API operation matches this request.',
    hint: (c) => `The operations this API offers are listed in ${c.documentationUrl}.`,
  },
  method_not_allowed: {
    status: 405,
    rpc: { code: -32600 },
    message: (args?: { method?: string; path?: string }) => `${args?.path ?? 'This path'} does not accept ${args?.method ?? 'this method'}.`,
    hint: (c) => `Use ${formatList(c.allow ?? [])}, as the Allow header says; see ${c.documentationUrl}.`,
  },
  bad_request: {
    status: 400,
    rpc: { code: -32600 },
    message: 'The request could not be understood.',
    hint: (c) => `Check the parameters and body against ${c.documentationUrl}.`,
  },
  internal_error: {
    status: 500,
    rpc: { code: -32603 },
    message: 'The server failed while answering this request.',
    hint: internalErrorHint,
  },
  unauthorized: {
    status: 401,
    rpc: { code: -32600 },
    message: 'This call needs a credential it did not carry, or carried one that is unknown or revoked.',
    hint: (c) => `See which credential each operation takes in ${c.documentationUrl}.`,
  },
  forbidden: {
    status: 403,
    rpc: { code: -32600 },
    message: 'This credential may not make this call.',
    hint: "Change the app's allowed networks or domains, or enable it, in the dashboard.",
  },
  /** An account at one of its caps (apps or webhooks per account): `limit` names it. */
  limit_reached: { status: 409, message: 'This account has as many of these as one account may have.', hint: limitReachedHint },
  /** Over a limit: a keyed call's compute units (its JSON-RPC `data` names the limit), a client's bodies, sign-in attempts. */
  rate_limited: {
    status: 429,
    rpc: { code: 429 },
    message: (args?: { limit: RateLimit; retryAfterSeconds: number }) =>
      args
        ? `Too many requests: over ${rateLimitText(args.limit)}; retry after ${args.retryAfterSeconds} s.`
        : 'Too many calls: this credential is over its rate or quota.',
    hint: 'Wait the seconds the Retry-After header gives, or raise the app’s limits.',
  },
  upstream_unavailable: { status: 503, rpc: { code: -32603 }, message: 'No node of this network answered.', hint: 'Retry in a few seconds.' },

  // The refusals of a keyed call (docs/keys-and-limits.md#admission-order), over JSON-RPC and REST alike.
  invalid_api_key: {
    status: 401,
    rpc: { code: -32600 },
    bodyCode: 'unauthorized',
    message: 'Invalid API key.',
    hint: 'Use the key of one of your apps (dashboard, or `npm run apps -- create`), or `demo` to try.',
  },
  app_disabled: {
    status: 403,
    rpc: { code: -32600 },
    bodyCode: 'forbidden',
    message: 'Forbidden: this app is disabled; its owner can enable it in the dashboard.',
  },
  network_not_allowed: {
    status: 403,
    rpc: { code: -32600 },
    bodyCode: 'forbidden',
    message: (args: { network: string }) => `Forbidden: this app is not allowed on network ${args.network}; add the network to the app in the dashboard.`,
  },
  origin_not_allowed: {
    status: 403,
    rpc: { code: -32600 },
    bodyCode: 'forbidden',
    message: (args: { origin: string }) => `Forbidden: origin ${args.origin} is not in this app's allowed domains.`,
  },
  /**
   * A keyed call costing more compute units than a bucket it draws on can hold: no wait lets it
   * through, so it is a 400 (not a 429, which clients retry), and its JSON-RPC `data` names the limit.
   */
  cost_exceeds_burst: {
    status: 400,
    rpc: { code: -32600 },
    bodyCode: 'bad_request',
    message: (args: { limit: RateLimit; computeUnits: number; burst: number }) =>
      `Request too large for this key's limits: it costs ${args.computeUnits} compute units, more than the ${args.burst} that ${bucketText(args.limit)} holds at most (its burst), so it is refused however long you wait; split it into smaller requests.`,
    hint: 'Retrying it unchanged will not help: split it (a batch into smaller batches), or use a key whose rate allows it.',
  },

  // JSON-RPC's own (docs/errors.md#json-rpc-errors).
  parse_error: { status: 400, rpc: { code: -32700 }, bodyCode: 'bad_request', message: 'Parse error: the body is not valid JSON.' },
  invalid_request: {
    status: 400,
    rpc: { code: -32600 },
    bodyCode: 'bad_request',
    message: (args: { problem: string }) => `Invalid request: ${args.problem}.`,
  },
  method_not_found: {
    status: 404,
    rpc: { code: -32601, status: 200 },
    bodyCode: 'not_found',
    message: (args: { method: string; docsUrl: string }) => `Unsupported method: ${args.method}. See ${args.docsUrl}.`,
  },
  /** A subscription method over HTTP: known, but it needs a connection to push on. */
  websocket_only: {
    status: 404,
    rpc: { code: -32601, status: 200 },
    bodyCode: 'not_found',
    message: (args: { method: string; docsUrl: string }) => `${args.method} needs a WebSocket connection: open the same URL with wss://. See ${args.docsUrl}.`,
  },
  /** A data-product method on a network that product does not serve (no transfer index for it). */
  not_served: {
    status: 404,
    rpc: { code: -32601, status: 200 },
    bodyCode: 'not_found',
    message: (args: { method: string; network: string; docsUrl: string }) => `${args.method} is not available on network ${args.network}. See ${args.docsUrl}.`,
  },
  invalid_params: {
    status: 400,
    rpc: { code: -32602, status: 200 },
    bodyCode: 'bad_request',
    message: (args: { detail: string }) => `invalid params: ${args.detail}.`,
  },
  body_too_large: {
    status: 413,
    rpc: { code: -32600 },
    bodyCode: 'bad_request',
    message: (args: { maxBytes: number }) =>
      `Request body too large: the limit is ${args.maxBytes / 1024 / 1024} MiB (${args.maxBytes} bytes); send smaller batches.`,
  },
  no_healthy_upstream: {
    status: 503,
    rpc: { code: -32603 },
    bodyCode: 'upstream_unavailable',
    message: (args: { network: string }) => `No healthy upstream for network ${args.network}; retry in a few seconds.`,
  },
  /** "erc20" token balances come from the transfer index, which holds nothing for this network (yet). */
  index_unavailable: {
    status: 503,
    rpc: { code: -32603 },
    bodyCode: 'upstream_unavailable',
    message: (args: { network: string }) =>
      `The transfer index of network ${args.network} is not available here (not indexed, or not caught up yet; the operator's INDEXER_NETWORKS names the networks indexed): "erc20" balances need it; ask for a list of contracts, or retry later.`,
  },
  /** WebSocket: a connection's subscriptions are capped; -32005 is EIP-1474's "limit exceeded". */
  too_many_subscriptions: {
    status: 429,
    rpc: { code: -32005, status: 200 },
    bodyCode: 'rate_limited',
    message: (args: { max: number }) => `Too many subscriptions: a connection may hold ${args.max}; cancel one with eth_unsubscribe.`,
  },
  /** WebSocket: an upgrade over the caller's open connections (an app's, or the demo key's per client IP). */
  too_many_connections: {
    status: 429,
    rpc: { code: 429 },
    bodyCode: 'rate_limited',
    message: (args: { max: number; per: 'app' | 'client IP' }) =>
      `Too many connections: ${args.per === 'app' ? 'this app' : 'the demo key'} may hold ${args.max} WebSocket connections at once${args.per === 'app' ? '' : ' per client IP'}; close one first.`,
  },
  /** WebSocket: a subscription that would make the caller hold one upstream topic more than it may. */
  too_many_topics: {
    status: 429,
    rpc: { code: -32005, status: 200 },
    bodyCode: 'rate_limited',
    message: (args: { max: number }) =>
      `Too many subscription topics: a key may hold ${args.max} distinct subscriptions (kind and filter) at once over all its connections (the demo key: per client IP); cancel one with eth_unsubscribe, or share filters.`,
  },

  // The dashboard's (docs/errors.md#dashboard-errors); it also answers not_found, unauthorized,
  // limit_reached, rate_limited and internal_error, with hints of its own (src/dashboard/errors.ts).
  invalid_input: { status: 400, message: 'The request is not valid.', hint: 'Correct the field the error names and send it again.' },
  wrong_credentials: {
    status: 401,
    message: 'Email or password is wrong.',
    hint: 'Check the email and password, or create an account at /dashboard/sign-up/.',
  },
  csrf_failed: {
    status: 403,
    message: 'The CSRF check failed.',
    hint: 'Reload the page and try again: state changes need X-CSRF-Token equal to the CSRF cookie, from this site.',
  },
  email_taken: { status: 409, message: 'An account with this email already exists. Sign in instead.', hint: 'Sign in at /dashboard/sign-in/ instead.' },
  stale_version: {
    status: 409,
    message: 'This app changed since you read it.',
    hint: 'Reload the app to see the newer version, then make the change again.',
  },
  server_busy: { status: 503, message: 'The server is busy.', hint: 'Try again in the seconds the Retry-After header gives.' },

  // The faucet's statusCodes (docs/website.md#faucet-error-codes), answered as the FaucetError.
  // Send's, in the order its decision chain checks them.
  invalid_request_body: {
    status: 400,
    message: 'The request body is not a JSON object of the expected shape.',
    hint: 'Send Content-Type: application/json with {"address": "0x…", "turnstileToken": "…"}.',
  },
  unsupported_faucet: { status: 400, message: 'There is no faucet for this network.', hint: 'Use one of the faucet ids listed in supportedChains.' },
  missing_address: { status: 400, message: 'The recipient address is missing.', hint: 'Add "address": a 0x-prefixed address of 40 hexadecimal digits.' },
  invalid_address: {
    status: 400,
    message: 'The recipient address is not a valid address.',
    hint: 'An address is 0x followed by 40 hexadecimal digits, for example 0x71C7656EC7ab88b098defB751B7401B5f6d8976F.',
  },
  missing_turnstile: {
    status: 400,
    message: 'The CAPTCHA token is missing.',
    hint: 'Complete the check on the faucet page of this network and send its token as "turnstileToken".',
  },
  turnstile_failed: {
    status: 403,
    message: 'The CAPTCHA check was rejected.',
    hint: 'Complete the check again on the faucet page; each token can be used once.',
  },
  /** siteverify gave no answer (unreachable, timed out, garbage, or Cloudflare's own internal-error): the token was not judged. */
  turnstile_unavailable: {
    status: 503,
    message: 'The CAPTCHA could not be checked: the verification service did not answer.',
    detail: 'This is not a problem with your request or your token; try again in a moment, with a fresh CAPTCHA token if the page gives one.',
  },
  insufficient_mainnet_balance: {
    status: 403,
    message: 'The address holds too little on mainnet to use this faucet.',
    hint: 'Fund the address on the matching mainnet, then try again.',
  },
  insufficient_mainnet_activity: {
    status: 403,
    message: 'The address has too little mainnet activity to use this faucet.',
    hint: 'Use an address with a transaction history on the matching mainnet.',
  },
  max_balance_exceeded: {
    status: 403,
    message: 'The address already holds more than this faucet tops up to.',
    hint: 'Spend from the balance you have, or request for another address.',
  },
  nonce_conflict: { status: 409, message: 'The faucet wallet is busy with another transaction.', detail: 'Retry after a few seconds.' },
  rate_limit_exceeded: {
    status: 429,
    message: 'This address has already received a drip on this network recently.',
    hint: 'Try again after the time in resetAt.',
  },
  faucet_request_failed: { status: 500, message: 'The faucet could not send the transaction.', detail: 'This is retryable: try again in a moment.' },
  insufficient_faucet_balance: {
    status: 503,
    message: 'The faucet wallet for this network is out of funds.',
    hint: 'Try a different network; this is not something the caller can fix.',
  },
  insufficient_faucet_balance_tx: {
    status: 503,
    message: 'The network rejected the transaction because the faucet wallet cannot pay for it.',
    hint: 'Try a different network; this is not something the caller can fix.',
  },
  // Status's (unknown faucet ids reuse unsupported_faucet).
  invalid_transaction_hash: {
    status: 400,
    message: 'The transaction hash is missing or malformed.',
    hint: 'Pass ?transactionHash= with the 0x-prefixed 64-hex-digit hash the send returned.',
  },
  status_check_failed: {
    status: 500,
    message: 'The transaction status could not be read from the network.',
    detail: 'This is retryable: poll again in a moment.',
  },
} as const satisfies Record<string, ErrorRow>;

export type ErrorCode = keyof typeof errorCodes;

/** The facts a code's sentence is written from; none for a fixed sentence. */
export type MessageArgs<C extends ErrorCode> = (typeof errorCodes)[C]['message'] extends (...args: infer A) => string ? A : [];

/** The Error body's codes, as its schema lists them (docs/errors.md#error-body). */
export const ERROR_BODY_CODES = [
  'not_found',
  'method_not_allowed',
  'bad_request',
  'internal_error',
  'unauthorized',
  'forbidden',
  'limit_reached',
  'rate_limited',
  'upstream_unavailable',
] as const satisfies readonly ErrorCode[];
export type ErrorBodyCode = (typeof ERROR_BODY_CODES)[number];

/** The dashboard's codes, as its Error body's schema lists them (docs/errors.md#dashboard-errors). */
export const DASHBOARD_CODES = [
  'invalid_input',
  'unauthorized',
  'wrong_credentials',
  'csrf_failed',
  'not_found',
  'email_taken',
  'stale_version',
  'limit_reached',
  'rate_limited',
  'server_busy',
  'internal_error',
] as const satisfies readonly ErrorCode[];
export type DashboardCode = (typeof DASHBOARD_CODES)[number];

/** The faucet's statusCodes, as the FaucetError's schema lists them. */
export const FAUCET_CODES = [
  'invalid_request_body',
  'unsupported_faucet',
  'missing_address',
  'invalid_address',
  'missing_turnstile',
  'turnstile_failed',
  'turnstile_unavailable',
  'insufficient_mainnet_balance',
  'insufficient_mainnet_activity',
  'max_balance_exceeded',
  'nonce_conflict',
  'rate_limit_exceeded',
  'faucet_request_failed',
  'insufficient_faucet_balance',
  'insufficient_faucet_balance_tx',
  'invalid_transaction_hash',
  'status_check_failed',
] as const satisfies readonly ErrorCode[];
export type FaucetCode = (typeof FAUCET_CODES)[number];

/** A code's row, read as the common shape. */
export function errorRow(code: ErrorCode): ErrorRow {
  return errorCodes[code];
}
