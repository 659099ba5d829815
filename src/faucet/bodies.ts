import { z } from 'zod';
import { faucetErrorCodes } from './errors.ts';

// The faucet's response bodies (docs/website.md#faucet-send, docs/errors.md#faucet-error-body) as zod schemas: the service's answers are typed
// from them, the HTTP layer sends them, and the OpenAPI document describes them
// (src/api/schemas.ts names them as components).

/** 2.2 */
export const FaucetSendSuccess = z.object({
  success: z.literal(true),
  transactionHash: z.string().describe('Hash to pass to the status endpoint.'),
  amount: z.string().optional().describe("Amount sent, in the network's native unit."),
  recipient: z.string().optional(),
  explorerUrl: z.url().optional().describe('Block explorer link, when the network has an explorer.'),
  statusCode: z.literal('success'),
});
export type FaucetSendSuccess = z.infer<typeof FaucetSendSuccess>;

/** 2.3 */
export const FaucetErrorCode = z.enum(faucetErrorCodes).describe('Stable machine-readable failure code: branch on this, not on the text.');

export const FaucetError = z.object({
  error: z.string().describe('Human-readable reason.'),
  statusCode: FaucetErrorCode.optional(),
  message: z.string().optional().describe('Extra detail or advice to retry, on unexpected-failure paths.'),
  hint: z.string().optional().describe('The next step, on validation failures.'),
  supportedChains: z.array(z.string()).optional().describe('Present when faucetId is unknown.'),
  resetAt: z.iso.datetime().optional().describe('Present on rate_limit_exceeded: when the limit lifts.'),
  details: z.string().optional().describe('Present on turnstile_failed.'),
});
export type FaucetError = z.infer<typeof FaucetError>;

/** 2.4 */
export const FaucetTransactionStatus = z.object({
  status: z.enum(['success', 'failed', 'pending']).describe('`pending` means the node has no receipt yet.'),
  mined: z.literal(true).optional().describe('Present once a receipt exists.'),
  success: z.boolean().optional().describe('Present on the pending response.'),
  transactionHash: z.string().optional(),
  chainId: z.int().optional(),
  chainName: z.string().optional(),
  explorerUrl: z.url().optional(),
});
export type FaucetTransactionStatus = z.infer<typeof FaucetTransactionStatus>;
