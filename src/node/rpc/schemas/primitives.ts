import { z } from 'zod';

// The value kinds of Ethereum JSON-RPC params and results (execution-apis, EIP-1474, EIP-1898).
// Each schema carries a short title (the docs' type string and the OpenRPC schema's title) and
// a "must be …" phrase that the -32602 message puts after the parameter's name, for a wrong type
// and a wrong format alike.

const phrases = new WeakMap<z.ZodType, string>();

/** The "must be …" phrase of a schema built here, or undefined for any other schema. */
export function mustBePhrase(schema: z.ZodType): string | undefined {
  return phrases.get(schema);
}

/** A schema with a title: its readable type in the docs and in its JSON Schema. */
export function titled<S extends z.ZodType>(schema: S, title: string): S {
  return schema.meta({ title }) as S;
}

/** A titled schema whose -32602 message is `<param> <phrase>` however the value is wrong. */
export function kind<S extends z.ZodType>(schema: S, title: string, phrase: string): S {
  const named = titled(schema, title);
  phrases.set(named, phrase);
  return named;
}

/** A string matching `pattern`, with one message for a non-string and a mismatch. */
function hexString(pattern: RegExp, title: string, phrase: string, description: string) {
  const message = `must be ${phrase}`;
  return kind(z.string({ error: message }).regex(pattern, { error: message }).describe(description), title, message);
}

/** A number without leading zeros (EIP-1474 quantity): 0x0, 0x1f; never 0x, 0x01. */
const quantityPattern = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/;

export const HexQuantity = hexString(
  quantityPattern,
  'hex quantity',
  'a hex quantity such as "0x1f" (no leading zeros)',
  'A number in hexadecimal: 0x, then no leading zeros.',
);

export const HexData = hexString(
  /^0x([0-9a-fA-F]{2})*$/,
  'hex data',
  'hex data: "0x" and an even number of hex digits',
  'Bytes in hexadecimal: 0x and two digits per byte.',
);

export const NonEmptyHexData = hexString(
  /^0x([0-9a-fA-F]{2})+$/,
  'hex data',
  'non-empty hex data: "0x" and an even number of hex digits',
  'Bytes in hexadecimal: 0x and two digits per byte, at least one byte.',
);

export const Address = hexString(
  /^0x[0-9a-fA-F]{40}$/,
  'address',
  'a 20-byte address: "0x" and 40 hex digits',
  'A 20-byte address: 0x and 40 hexadecimal digits.',
);

export const Hash32 = hexString(
  /^0x[0-9a-fA-F]{64}$/,
  '32-byte hash',
  'a 32-byte hash: "0x" and 64 hex digits',
  'A 32-byte hash: 0x and 64 hexadecimal digits.',
);

/** A storage slot or key: up to 32 bytes, leading zeros allowed (clients send slots padded or not). */
export const StorageSlot = hexString(
  /^0x[0-9a-fA-F]{1,64}$/,
  'storage slot',
  'a storage slot: "0x" and 1 to 64 hex digits',
  'A storage slot: 0x and up to 64 hexadecimal digits.',
);

/** Filter and subscription ids are opaque hex strings chosen by the node. */
export const HexId = hexString(/^0x[0-9a-fA-F]+$/, 'hex id', 'an id: "0x" and hex digits', 'An id the node returned: 0x and hexadecimal digits.');

const blockTags = ['latest', 'earliest', 'pending', 'safe', 'finalized'] as const;

/** A block number: a quantity of at most 64 bits, so a 32-byte hash is never read as one. */
const blockNumberPattern = /^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,15})$/;

const blockTagPhrase = 'must be "latest", "earliest", "pending", "safe", "finalized" or a hex block number';

/**
 * A block by tag or number: what eth_getBlockByNumber and log filters take. One string pattern
 * rather than a union, so that every wrong value gets the same message wherever it sits.
 */
export const BlockTagOrNumber = kind(
  z
    .string({ error: blockTagPhrase })
    .regex(new RegExp(`^(${blockTags.join('|')}|${blockNumberPattern.source.slice(1, -1)})$`), { error: blockTagPhrase })
    .describe('A block tag ("latest", "earliest", "pending", "safe", "finalized") or a block number in hexadecimal.'),
  'block tag or number',
  blockTagPhrase,
);

const blockParamPhrase = `${blockTagPhrase}, a 32-byte block hash, or {"blockHash": "0x…", "requireCanonical"?: boolean} or {"blockNumber": "0x…"}`;

export const Bool = kind(z.boolean({ error: 'must be true or false' }), 'boolean', 'must be true or false');

/** EIP-1898: a block by hash (requireCanonical refuses one off the canonical chain) or by number. */
const BlockObject = z
  .object({ blockHash: Hash32.optional(), blockNumber: BlockTagOrNumber.optional(), requireCanonical: Bool.optional() })
  .refine((block) => (block.blockHash === undefined) !== (block.blockNumber === undefined), { error: 'must name exactly one of blockHash and blockNumber' })
  .describe('{"blockHash", "requireCanonical"?} or {"blockNumber"} (EIP-1898).');

/** Where state is read: EIP-1898 objects, and a bare block hash as geth and anvil take it. */
export const BlockParam = kind(
  z
    .union([BlockTagOrNumber, Hash32, BlockObject], { error: blockParamPhrase })
    .describe('A block tag, a hex block number, a block hash, or an EIP-1898 block object.'),
  'block tag, number, hash or EIP-1898 object',
  blockParamPhrase,
);
export type BlockParam = z.infer<typeof BlockParam>;

/** The block number a block param names without asking the chain: a number, `earliest`, or `{ blockNumber }` of one. */
export function blockNumberOf(param: unknown): bigint | null {
  if (param === 'earliest') return 0n;
  if (typeof param === 'string') return blockNumberPattern.test(param) ? BigInt(param) : null;
  if (typeof param === 'object' && param !== null && 'blockNumber' in param) return blockNumberOf(param.blockNumber);
  return null;
}
