import { z } from 'zod';
import { FaucetError, FaucetErrorCode as FaucetErrorCodeSchema, FaucetSendSuccess, FaucetTransactionStatus } from '../bodies.ts';
import { faucetError, faucetErrorCodesOf, faucetErrorRow, type FaucetErrorCode } from '../errors.ts';
import { faucetErrorResponse } from '../../errors/faucet-body.ts';
import { defineOperation, type ApiOperation, type InputFailure, type OperationInput, type ResponseSpec } from '../../api/operation.ts';
import { Address, TransactionHash } from '../../api/schemas.ts';

// The faucet operations (docs/website.md#faucet-send, docs/website.md#faucet-status): their inputs, responses and input-error mapping live
// here; the service behind them is injected as FaucetHandlers (src/faucet/ provides it).

/** 2.1 */
const FaucetSendRequest = z.object({
  address: Address.describe('Recipient address.'),
  turnstileToken: z.string().min(1).describe('Token from the CAPTCHA on the faucet page of this network ({base_url}/faucets/{faucetId}).'),
});
type FaucetSendRequest = z.infer<typeof FaucetSendRequest>;

/** The faucet's named schemas of the OpenAPI document (`#/components/schemas/<name>`). */
export function faucetComponentSchemas(faucetId: z.ZodType) {
  return { FaucetId: faucetId, FaucetSendRequest, FaucetSendSuccess, FaucetErrorCode: FaucetErrorCodeSchema, FaucetError, FaucetTransactionStatus };
}

type FaucetSendOperationInput = OperationInput<{ faucetId: string }, Record<string, never>, FaucetSendRequest>;
type FaucetStatusOperationInput = OperationInput<{ faucetId: string }, { transactionHash: string }, undefined>;

/** What the faucet service plugs into the router; inputs arrive parsed and validated. */
export interface FaucetHandlers {
  send(input: FaucetSendOperationInput): Response | Promise<Response>;
  status(input: FaucetStatusOperationInput): Response | Promise<Response>;
}

/** Largest send body accepted: an address and a Turnstile token (at most 2048 characters). */
const faucetSendMaxBytes = 8 * 1024;

export function faucetOperations(faucetIds: readonly string[], faucetId: z.ZodType<string>, handlers: FaucetHandlers): ApiOperation[] {
  const params = z.object({ faucetId });
  const unsupported = () => faucetErrorResponse(faucetError('unsupported_faucet', { supportedChains: [...faucetIds] }));

  const send = defineOperation({
    operationId: 'sendFaucetDrip',
    method: 'POST',
    path: '/api/faucets/{faucetId}/send',
    summary: "Send the network's drip amount to an address",
    description:
      'Needs a CAPTCHA token from the faucet page of the network ({base_url}/faucets/{faucetId}). Rate limited per address per network and subject to anti-sybil checks (docs/website.md#faucet-limits). Branch on `statusCode`, never on the text.',
    tags: ['Faucet'],
    params,
    body: { schema: FaucetSendRequest, maxBytes: faucetSendMaxBytes, description: 'Recipient and CAPTCHA token.' },
    responses: {
      200: { description: 'Sent; poll the status operation with `transactionHash`.', content: { 'application/json': FaucetSendSuccess } },
      ...faucetErrorResponses(faucetErrorCodesOf('send')),
    },
    handler: (input) => handlers.send(input),
    invalid: (failures) => faucetSendInvalid(failures, unsupported),
  });

  const status = defineOperation({
    operationId: 'getFaucetTransactionStatus',
    method: 'GET',
    path: '/api/faucets/{faucetId}/status',
    summary: 'Status of a faucet transaction',
    description:
      'Reads the receipt of a hash returned by the send. A hash the node has no receipt for yet is `pending` with HTTP 200: poll again, it is not an error.',
    tags: ['Faucet'],
    params,
    query: z.object({ transactionHash: TransactionHash.describe('Hash returned by the send: 0x followed by 64 hexadecimal digits.') }),
    responses: {
      200: { description: 'The transaction status.', content: { 'application/json': FaucetTransactionStatus } },
      ...faucetErrorResponses(faucetErrorCodesOf('status')),
    },
    handler: (input) => handlers.status(input),
    invalid: (failures) => (failures.some((f) => f.part === 'params') ? unsupported() : faucetErrorResponse(faucetError('invalid_transaction_hash'))),
  });

  return [send, status];
}

/** docs/website.md#order-of-checks precedence: body unreadable, then faucet id, then address, then token. */
function faucetSendInvalid(failures: InputFailure[], unsupported: () => Response): Response {
  const body = failures.find((failure) => failure.part === 'body');
  const raw = body?.reason === 'invalid' ? body.input : undefined;
  if (body && (body.reason !== 'invalid' || !isObject(raw))) return faucetErrorResponse(faucetError('invalid_request_body'));
  if (failures.some((failure) => failure.part === 'params')) return unsupported();
  if (isObject(raw)) {
    if (raw.address === undefined || raw.address === null || raw.address === '') return faucetErrorResponse(faucetError('missing_address'));
    if (!Address.safeParse(raw.address).success) return faucetErrorResponse(faucetError('invalid_address'));
    if (raw.turnstileToken === undefined || raw.turnstileToken === null || raw.turnstileToken === '')
      return faucetErrorResponse(faucetError('missing_turnstile'));
  }
  return faucetErrorResponse(faucetError('invalid_request_body'));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One OpenAPI response per HTTP status, naming the statusCodes it carries. */
function faucetErrorResponses(codes: readonly FaucetErrorCode[]): Record<number, ResponseSpec> {
  const byStatus = new Map<number, FaucetErrorCode[]>();
  for (const code of codes) {
    const { status } = faucetErrorRow(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      {
        description: `FaucetError with statusCode ${list.map((code) => `\`${code}\` (${faucetErrorRow(code).error})`).join('; ')}`,
        content: { 'application/json': FaucetError },
      },
    ]),
  );
}
