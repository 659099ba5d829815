import { z } from 'zod';
import { MAX_LOGS_FILTER_ADDRESSES } from '../limits.ts';
import { Address, BlockTagOrNumber, Bool, HexQuantity, kind } from './primitives.ts';
import { StateOverride } from './requests.ts';

// The params of the read-only tracing methods: the tracer options of debug_trace* (the built-in
// callTracer and prestateTracer only), trace_call's trace types and trace_filter's filter.
// Tracer options are strict: a field a node would read and this schema does not know (`reexec`,
// the opcode logger's switches) could make the node do unbounded work, so it is refused by name.

/** The tracers served; a JavaScript tracer (any other string) or none at all is refused before any upstream. */
const BUILT_IN_TRACERS = ['callTracer', 'prestateTracer'] as const;

const tracerPhrase = 'must be "callTracer" or "prestateTracer": JavaScript tracers and the opcode logger are not served';

/** Go's duration syntax, as geth reads a tracer's `timeout`: "500ms", "10s", "1m30s". */
const durationPattern = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
const durationPhrase = 'must be a duration such as "10s" or "500ms"';
const Duration = kind(z.string({ error: durationPhrase }).regex(durationPattern, { error: durationPhrase }), 'duration', durationPhrase);

const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a duration the schema accepted. */
export function durationMs(duration: string): number {
  let total = 0;
  for (const [, amount, , unit] of duration.matchAll(/(\d+(\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(amount) * unitMs[unit!]!;
  return total;
}

/** A strict object whose unknown fields are named in the -32602 message. */
const strictFields = <Shape extends z.ZodRawShape>(shape: Shape, phrase: string) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `has fields this method does not take: ${issue.keys.join(', ')}` : phrase),
  });

const tracerConfigPhrase = 'must be an object such as {"onlyTopCall": true} or {"diffMode": true}';

/** Both tracers' settings; the incumbent's SDK sends its `timeout` here, where geth ignores it. */
const TracerConfig = kind(
  strictFields(
    {
      onlyTopCall: Bool.optional().describe('callTracer: the top call only, without its inner calls.'),
      withLog: Bool.optional().describe('callTracer: each call frame with the logs it emitted.'),
      diffMode: Bool.optional().describe('prestateTracer: the state before and after, of what changed.'),
      disableCode: Bool.optional(),
      disableStorage: Bool.optional(),
      timeout: Duration.optional(),
    },
    tracerConfigPhrase,
  ),
  'tracer config',
  tracerConfigPhrase,
);

const tracerFields = {
  tracer: z.enum(BUILT_IN_TRACERS, { error: tracerPhrase }).describe('"callTracer" (call frames) or "prestateTracer" (the accounts the execution touched).'),
  tracerConfig: TracerConfig.optional(),
  timeout: Duration.optional().describe('How long the node may trace; cut to the gateway’s trace deadline.'),
};

const optionsPhrase = 'must be tracer options such as {"tracer": "callTracer"}';

/** debug_traceTransaction and debug_traceBlockBy*: which tracer, and its settings. */
export const TracerOptions = kind(
  strictFields(tracerFields, optionsPhrase).describe('The tracer: {"tracer": "callTracer" | "prestateTracer", "tracerConfig"?, "timeout"?}.'),
  'tracer options',
  optionsPhrase,
);

const blockOverridesPhrase = 'must be an object such as {"number": "0x…", "time": "0x…"}';

/** debug_traceCall also takes state and block overrides, as eth_call does. */
export const TraceCallOptions = kind(
  strictFields(
    {
      ...tracerFields,
      stateOverrides: StateOverride.optional(),
      blockOverrides: kind(
        strictFields(
          {
            number: HexQuantity.optional(),
            time: HexQuantity.optional(),
            gasLimit: HexQuantity.optional(),
            baseFee: HexQuantity.optional(),
            feeRecipient: Address.optional(),
            coinbase: Address.optional(),
          },
          blockOverridesPhrase,
        ),
        'block overrides',
        blockOverridesPhrase,
      ).optional(),
    },
    optionsPhrase,
  ).describe('The tracer as debug_traceTransaction takes it, and optionally stateOverrides and blockOverrides.'),
  'tracer options',
  optionsPhrase,
);

const traceTypesPhrase = 'must be a non-empty list of "trace" and "stateDiff"';

/** trace_call's trace types. */
export const TraceTypes = kind(
  z
    .array(z.enum(['trace', 'stateDiff'], { error: 'must be "trace" or "stateDiff" ("vmTrace", an opcode trace, is not served)' }), { error: traceTypesPhrase })
    .min(1, { error: traceTypesPhrase })
    .describe('Which traces: "trace" (calls) and "stateDiff".'),
  'list of trace types',
  traceTypesPhrase,
);

const addressListPhrase = `must be a list of at most ${MAX_LOGS_FILTER_ADDRESSES} addresses`;
const AddressList = z.array(Address, { error: addressListPhrase }).max(MAX_LOGS_FILTER_ADDRESSES, {
  error: (issue) => `has ${(issue.input as unknown[]).length} addresses; a filter may name at most ${MAX_LOGS_FILTER_ADDRESSES}`,
});

const count = (what: string) => z.int({ error: `must be a whole number (${what})` }).min(0, { error: `must be a whole number (${what})` });

const traceFilterPhrase = 'must be a trace filter such as {"fromBlock": "0x…", "toBlock": "0x…", "toAddress": ["0x…"]}';

/** trace_filter: a range that starts at a block the caller names (from genesis is unbounded), and who called whom. */
export const TraceFilter = kind(
  z
    .looseObject(
      {
        fromBlock: BlockTagOrNumber.optional(),
        toBlock: BlockTagOrNumber.optional().describe('Default "latest".'),
        fromAddress: AddressList.optional(),
        toAddress: AddressList.optional(),
        after: count('traces to skip').optional(),
        count: count('traces to return').optional(),
      },
      { error: traceFilterPhrase },
    )
    .refine((filter) => filter.fromBlock !== undefined, {
      error: 'is required: trace_filter reads a bounded range of blocks from the one you name',
      path: ['fromBlock'],
    })
    .describe('Which traces: fromBlock (required) and toBlock, callers (fromAddress) and callees (toAddress), and paging (after, count).'),
  'trace filter',
  traceFilterPhrase,
);
