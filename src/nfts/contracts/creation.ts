import { getAddress, isAddress, type Address, type Hex } from 'viem';
import { z } from 'zod';

// Who created a contract, from what a node says of the block it first has code in (docs/nft-data.md#contract-facts:
// `contractDeployer` found on chain). Pure readers of node answers: a receipt's contractAddress for
// a plain deployment, a CREATE or CREATE2 frame for one made by a factory (the local world deploys
// through the deterministic CREATE2 deployer), or the node's own index of creations (Otterscan's API).
// The deployer is the transaction's sender. An answer of another shape says nothing (null), never a guess.

const address = z.string().refine((text) => isAddress(text, { strict: false }));
const sameAddress = (a: string, b: Address) => a.toLowerCase() === b.toLowerCase();

const receipts = z.array(z.object({ from: address, contractAddress: address.nullish(), status: z.string().nullish() }));

/** From eth_getBlockReceipts: the sender of the successful transaction whose receipt names `contract` as created. */
export function creatorFromReceipts(answer: unknown, contract: Address): Address | null {
  const parsed = receipts.safeParse(answer);
  if (!parsed.success) return null;
  const receipt = parsed.data.find((item) => item.contractAddress && sameAddress(item.contractAddress, contract) && item.status !== '0x0');
  return receipt ? getAddress(receipt.from) : null;
}

interface CallFrame {
  type: string;
  from: string;
  to?: string | null;
  error?: string | null;
  calls?: CallFrame[] | null;
}

const callFrame: z.ZodType<CallFrame> = z.lazy(() =>
  z.object({ type: z.string(), from: address, to: address.nullish(), error: z.string().nullish(), calls: z.array(callFrame).nullish() }),
);
const callTraces = z.array(z.object({ result: callFrame }));

/** A frame that created `contract` and did not fail (a failed frame's creation is undone). */
function createsIn(frame: CallFrame, contract: Address): boolean {
  if (frame.error) return false;
  if (/^CREATE2?$/i.test(frame.type) && frame.to && sameAddress(frame.to, contract)) return true;
  return (frame.calls ?? []).some((call) => createsIn(call, contract));
}

/** From debug_traceBlockByNumber with the callTracer: the sender of the transaction with a CREATE/CREATE2 of `contract`. */
export function creatorFromCallTraces(answer: unknown, contract: Address): Address | null {
  const parsed = callTraces.safeParse(answer);
  if (!parsed.success) return null;
  const transaction = parsed.data.find((trace) => createsIn(trace.result, contract));
  return transaction ? getAddress(transaction.result.from) : null;
}

const parityTraces = z.array(
  z.object({
    type: z.string(),
    transactionHash: z.string().nullish(),
    traceAddress: z.array(z.number()),
    action: z.object({ from: address.nullish() }).loose(),
    result: z.object({ address: address.nullish() }).loose().nullish(),
    error: z.string().nullish(),
  }),
);

/** From trace_block (parity style): the sender of the transaction with a `create` trace whose result is `contract`. */
export function creatorFromParityTraces(answer: unknown, contract: Address): Address | null {
  const parsed = parityTraces.safeParse(answer);
  if (!parsed.success) return null;
  const created = parsed.data.find((trace) => trace.type === 'create' && !trace.error && trace.result?.address && sameAddress(trace.result.address, contract));
  if (!created?.transactionHash) return null;
  // A failed parent undoes its children: every trace of the transaction on the path to the creation must have succeeded.
  const ofTransaction = parsed.data.filter((trace) => trace.transactionHash === created.transactionHash);
  const onPath = ofTransaction.filter((trace) => trace.traceAddress.every((step, i) => created.traceAddress[i] === step));
  if (onPath.some((trace) => trace.error)) return null;
  const top = ofTransaction.find((trace) => trace.traceAddress.length === 0);
  return top?.action.from ? getAddress(top.action.from) : null;
}

const otterscanCreator = z.object({ hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/) });
const minedTransaction = z.object({ from: address, blockNumber: z.string().regex(/^0x[0-9a-fA-F]+$/) });

/** From ots_getContractCreator: the creating transaction's hash (its `creator` is whoever ran CREATE, a factory perhaps, not the sender). */
export function creationFromOtterscan(answer: unknown): Hex | null {
  const parsed = otterscanCreator.safeParse(answer);
  return parsed.success ? (parsed.data.hash as Hex) : null;
}

/** From eth_getTransactionByHash: the sender and block of a mined transaction. */
export function minedSender(answer: unknown): { from: Address; blockNumber: number } | null {
  const parsed = minedTransaction.safeParse(answer);
  return parsed.success ? { from: getAddress(parsed.data.from), blockNumber: Number(BigInt(parsed.data.blockNumber)) } : null;
}
