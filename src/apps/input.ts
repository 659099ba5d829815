import { z } from 'zod';
import { APP_DEFAULTS, APP_STATES, type AppState } from './app.ts';
import { normalizeAllowedDomain } from './domains.ts';
import { AppInputError } from './errors.ts';
import type { NetworkIdOf } from '../site/network-names.ts';

// What the app store accepts (docs/keys-and-limits.md#apps), validated before anything is written. Each refusal
// is an AppInputError naming the field, whose reason completes the sentence "<field> <reason>".

const NAME = 'must be 1 to 64 characters, without control characters';
const OWNER = 'must be an account id of 1 to 128 characters, or null';
const DOMAINS = 'must be a list of at most 100 hosts';
const NETWORKS = "must be a list of network ids (or the incumbent's names of their chains)";
const CU_PER_SECOND = 'must be a whole number of compute units per second from 1 to 1000000';
const QUOTA = 'must be a whole number of compute units per month, or null for unlimited';
const GRACE = 'must be a whole number of seconds from 0 to 2592000 (30 days)';
const VERSION = 'must be a whole number';

/** The longest grace period a rotated key may keep working. */
const MAX_GRACE_SECONDS = 30 * 86_400;

function fieldSchemas(networks: readonly string[], idOf: NetworkIdOf) {
  return {
    name: z
      .string({ error: NAME })
      .trim()
      .min(1, NAME)
      .max(64, NAME)
      .regex(/^\P{Cc}*$/u, NAME),
    ownerId: z.string({ error: OWNER }).min(1, OWNER).max(128, OWNER).nullable(),
    allowedDomains: z
      .array(z.string({ error: DOMAINS }), { error: DOMAINS })
      .max(100, DOMAINS)
      .transform((entries, ctx) => {
        const domains = new Set<string>();
        for (const entry of entries) {
          const domain = normalizeAllowedDomain(entry);
          if (domain === null) {
            ctx.addIssue({
              code: 'custom',
              message: `has ${JSON.stringify(entry)}, which is neither a host such as example.com nor a wildcard such as *.example.com`,
            });
            return z.NEVER;
          }
          domains.add(domain);
        }
        return [...domains];
      }),
    // Kept as ids, as domains are kept normalized: `eth-sepolia` is saved as `ethereum-sepolia`.
    allowedNetworks: z.array(z.string({ error: NETWORKS }), { error: NETWORKS }).transform((names, ctx) => {
      const unknown = names.find((name) => idOf(name) === null);
      if (unknown === undefined) return [...new Set(names.map((name) => idOf(name)!))];
      ctx.addIssue({ code: 'custom', message: `has ${JSON.stringify(unknown)}, which is not a network id (known: ${networks.join(', ')})` });
      return z.NEVER;
    }),
    computeUnitsPerSecond: z.number({ error: CU_PER_SECOND }).int(CU_PER_SECOND).min(1, CU_PER_SECOND).max(1_000_000, CU_PER_SECOND),
    monthlyComputeUnitQuota: z.number({ error: QUOTA }).int(QUOTA).min(0, QUOTA).max(Number.MAX_SAFE_INTEGER, QUOTA).nullable(),
  };
}

function appInputSchemas(networks: readonly string[], idOf: NetworkIdOf) {
  const field = fieldSchemas(networks, idOf);
  return {
    newApp: z.strictObject({
      name: field.name,
      ownerId: field.ownerId.default(null),
      allowedDomains: field.allowedDomains.default([]),
      allowedNetworks: field.allowedNetworks.default([]),
      computeUnitsPerSecond: field.computeUnitsPerSecond.default(APP_DEFAULTS.computeUnitsPerSecond),
      monthlyComputeUnitQuota: field.monthlyComputeUnitQuota.default(APP_DEFAULTS.monthlyComputeUnitQuota),
    }),
    patch: z.strictObject({
      name: field.name.optional(),
      allowedDomains: field.allowedDomains.optional(),
      allowedNetworks: field.allowedNetworks.optional(),
      computeUnitsPerSecond: field.computeUnitsPerSecond.optional(),
      monthlyComputeUnitQuota: field.monthlyComputeUnitQuota.optional(),
    }),
  };
}

type AppInputSchemas = ReturnType<typeof appInputSchemas>;
/** A new app: only the name is required. */
export type NewApp = z.input<AppInputSchemas['newApp']>;
/** A change to an app's settings: the fields given are replaced. */
export type AppPatch = z.input<AppInputSchemas['patch']>;

const rotation = z.strictObject({ graceSeconds: z.number({ error: GRACE }).int(GRACE).min(0, GRACE).max(MAX_GRACE_SECONDS, GRACE).default(0) });
export type RotateOptions = z.input<typeof rotation>;

/** Parsers of a new app and of a patch, for apps that may name these networks (by id, or by a name `idOf` knows). */
export function appInputParser(networks: readonly string[], idOf?: NetworkIdOf) {
  const known = new Set(networks);
  const schemas = appInputSchemas(networks, (name) => (known.has(name) ? name : (idOf?.(name) ?? null)));
  return {
    newApp: (input: unknown): z.output<AppInputSchemas['newApp']> => parseInput(schemas.newApp, input),
    /** The fields to change; a patch that changes none is refused. */
    patch: (input: unknown): z.output<AppInputSchemas['patch']> => {
      const patch = parseInput(schemas.patch, input);
      if (Object.values(patch).every((value) => value === undefined)) {
        throw new AppInputError('patch', `names no field to change (${Object.keys(schemas.patch.shape).join(', ')})`);
      }
      return patch;
    },
  };
}

export function parseRotateOptions(input: unknown): z.output<typeof rotation> {
  return parseInput(rotation, input ?? {});
}

export function parseState(input: unknown): AppState {
  return parseInput(z.enum(APP_STATES, { error: `must be ${APP_STATES.map((state) => JSON.stringify(state)).join(' or ')}` }), input, 'state');
}

export function parseExpectedVersion(input: unknown): number | undefined {
  return parseInput(z.number({ error: VERSION }).int(VERSION).min(0, VERSION).optional(), input, 'expectedVersion');
}

function parseInput<T>(schema: z.ZodType<T>, input: unknown, field?: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') throw new AppInputError(issue.keys[0]!, 'is not a setting of an app');
  throw new AppInputError(field ?? String(issue.path[0] ?? 'input'), issue.path.length === 0 && !field ? 'must be an object' : issue.message);
}
