import {
  type Abi,
  type AbiParameter,
  decodeEventLog,
  decodeFunctionData,
  decodeFunctionResult,
  erc1155Abi,
  erc20Abi,
  erc721Abi,
  type Address,
  type Hex,
} from 'viem';
import { type CallFrame, executionEvents, flattenFrames } from './call-frames.ts';

// A simulated transaction's execution (docs/tracing-and-simulation.md#execution): every call frame, outermost first and depth
// first, and the logs of the frames that did not fail, each decoded where its ABI is known. Crucible
// knows the token standards' ABIs (ERC-20, ERC-721, ERC-1155), not verified sources, so a decoded
// entry's authority is "CRUCIBLE". ERC-20 and ERC-721 share selectors and the Transfer and Approval
// topics: a contract that emitted a 4-topic Transfer in this execution is read as ERC-721.

const DECODING_AUTHORITY = 'CRUCIBLE';

interface DecodedValue {
  name: string;
  type: string;
  value: string;
}

interface SimulatedCall {
  type: string;
  from: Address;
  to: Address;
  value: Hex;
  gas: Hex;
  gasUsed: Hex;
  input: Hex;
  output: Hex;
  error?: string;
  decoded?: { methodName: string; inputs: DecodedValue[]; outputs: DecodedValue[]; authority: string };
}

interface SimulatedLog {
  address: Address;
  topics: Hex[];
  data: Hex;
  decoded?: { eventName: string; inputs: Array<DecodedValue & { indexed: boolean }>; authority: string };
}

export interface Execution {
  calls: SimulatedCall[];
  logs: SimulatedLog[];
}

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

/** A decoded value as text: numbers in decimal, addresses lower-case, lists and tuples as JSON. */
function text(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return /^0x[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : value;
  return JSON.stringify(value, (_, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner));
}

function values(parameters: readonly AbiParameter[], decoded: readonly unknown[] | Record<string, unknown>): DecodedValue[] {
  return parameters.map((parameter, i) => ({
    name: parameter.name ?? '',
    type: parameter.type,
    value: text(Array.isArray(decoded) ? decoded[i] : (decoded as Record<string, unknown>)[parameter.name ?? String(i)]),
  }));
}

/** The ABIs to try for a contract, its standard first when the execution showed it. */
const abisFor = (erc721: boolean): Abi[] => (erc721 ? [erc721Abi, erc1155Abi, erc20Abi] : [erc20Abi, erc1155Abi, erc721Abi]);

function decodeCall(frame: CallFrame, erc721: boolean): SimulatedCall['decoded'] {
  if (!frame.input || frame.input.length < 10) return undefined;
  for (const abi of abisFor(erc721)) {
    try {
      const { functionName, args } = decodeFunctionData({ abi, data: frame.input });
      const item = abi.find((entry) => entry.type === 'function' && entry.name === functionName && entry.inputs.length === (args ?? []).length);
      if (item?.type !== 'function') continue;
      let outputs: DecodedValue[] = [];
      if (frame.error === undefined && frame.output && frame.output !== '0x' && item.outputs.length > 0) {
        try {
          const result = decodeFunctionResult({ abi: [item], functionName, data: frame.output });
          outputs = values(item.outputs, item.outputs.length === 1 ? [result] : (result as readonly unknown[]));
        } catch {
          // An answer that does not fit the standard: the call is still decoded.
        }
      }
      return { methodName: functionName, inputs: values(item.inputs, args ?? []), outputs, authority: DECODING_AUTHORITY };
    } catch {
      // Not this ABI's function.
    }
  }
  return undefined;
}

function decodeLog(log: SimulatedLog, erc721: boolean): SimulatedLog['decoded'] {
  for (const abi of abisFor(erc721)) {
    try {
      const { eventName, args } = decodeEventLog({ abi, topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true });
      const item = abi.find((entry) => entry.type === 'event' && entry.name === eventName);
      if (!eventName || !item || item.type !== 'event') continue;
      const inputs = values(item.inputs, args as unknown as Record<string, unknown>).map((input, i) => ({
        ...input,
        indexed: item.inputs[i]!.indexed === true,
      }));
      return { eventName, inputs, authority: DECODING_AUTHORITY };
    } catch {
      // Not this ABI's event, or not its shape.
    }
  }
  return undefined;
}

/** The calls and logs of one traced transaction, decoded where a token standard's ABI fits. */
export function executionOf(frame: CallFrame): Execution {
  const logs: SimulatedLog[] = executionEvents(frame).flatMap((event) =>
    event.kind === 'log' ? [{ address: event.log.address.toLowerCase() as Address, topics: event.log.topics, data: event.log.data }] : [],
  );
  // Contracts that showed themselves ERC-721: a Transfer with the token id indexed.
  const erc721 = new Set(logs.filter((log) => log.topics[0] === TRANSFER_TOPIC && log.topics.length === 4).map((log) => log.address));
  const calls = flattenFrames(frame).map((call): SimulatedCall => {
    const to = (call.to ?? ZERO_ADDRESS).toLowerCase() as Address;
    const decoded = decodeCall(call, erc721.has(to));
    return {
      type: call.type,
      from: call.from.toLowerCase() as Address,
      to,
      value: call.value ?? '0x0',
      gas: call.gas ?? '0x0',
      gasUsed: call.gasUsed ?? '0x0',
      input: call.input ?? '0x',
      output: call.output ?? '0x',
      ...(call.error === undefined ? {} : { error: call.revertReason ? `${call.error}: ${call.revertReason}` : call.error }),
      ...(decoded ? { decoded } : {}),
    };
  });
  return {
    calls,
    logs: logs.map((log) => {
      const decoded = decodeLog(log, erc721.has(log.address));
      return decoded ? { ...log, decoded } : log;
    }),
  };
}
