import { z } from 'zod';

// The developer dashboard's JSON under /api/dashboard/ (docs/dashboard.md#endpoints): what each endpoint accepts
// and answers. The server validates with these schemas and /openapi.json describes them; the
// dashboard's pages import the input schemas to check a form before sending it, so this module
// imports nothing but zod. Each refusal's message is a sentence shown next to its field.

const PASSWORD_LENGTH = { min: 10, max: 200 } as const;
const EMAIL_MAX = 254;
const APP_NAME_MAX = 64;
const MAX_LIST = 100;
const MAX_GRACE_SECONDS = 30 * 86_400;

const emailMessage = `Enter an email address such as ada@example.com, of at most ${EMAIL_MAX} characters.`;
const passwordMessage = `Use ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.`;

/** Trimmed and lowercased before it is checked, as the account store keeps it. */
const Email = z
  .string({ error: emailMessage })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX, emailMessage)
  .pipe(z.email({ error: emailMessage }))
  .describe(`An email address of at most ${EMAIL_MAX} characters; compared without case.`);

const Password = z
  .string({ error: passwordMessage })
  .min(PASSWORD_LENGTH.min, passwordMessage)
  .max(PASSWORD_LENGTH.max, passwordMessage)
  .describe(`${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.`);

export const Credentials = z.strictObject({ email: Email, password: Password });

export const PasswordChange = z.strictObject({
  currentPassword: z.string({ error: 'Enter your current password.' }).min(1, 'Enter your current password.').max(PASSWORD_LENGTH.max, passwordMessage),
  newPassword: Password,
});

const appNameMessage = `Give the app a name of 1 to ${APP_NAME_MAX} characters.`;
const AppName = z
  .string({ error: appNameMessage })
  .trim()
  .min(1, appNameMessage)
  .max(APP_NAME_MAX, appNameMessage)
  .regex(/^\P{Cc}*$/u, 'A name cannot hold control characters such as line breaks.')
  .describe(`1 to ${APP_NAME_MAX} characters.`);

const domainMessage = 'Each domain is a host such as example.com, or a wildcard such as *.example.com for its subdomains.';
const AllowedDomains = z
  .array(
    z
      .string({ error: domainMessage })
      .trim()
      .min(1, domainMessage)
      .max(255, domainMessage)
      .regex(/^(\*\.)?[\p{L}\p{M}\p{N}-]+(\.[\p{L}\p{M}\p{N}-]+)*$/u, domainMessage),
    { error: domainMessage },
  )
  .max(MAX_LIST, `List at most ${MAX_LIST} domains.`)
  .describe(
    'Hosts (`example.com`) and wildcards (`*.example.com`) a browser may call the key from; empty: any origin. Requests without an Origin header are not affected.',
  );

const networksMessage = 'Choose networks from the list.';
const AllowedNetworks = z
  .array(z.string({ error: networksMessage }).regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, networksMessage), { error: networksMessage })
  .max(MAX_LIST, networksMessage)
  .describe(
    "Network ids from GET /api/dashboard/networks (or the incumbent's names of their chains, such as `eth-sepolia`, saved as the ids); empty: every network.",
  );

// Left out, the lists default to empty: every network, any origin. Optional outside the default so
// that /openapi.json (written for answers, where a default field is always there) shows them as
// not required, with their default.
export const NewApp = z.strictObject({
  name: AppName,
  allowedNetworks: AllowedNetworks.default([]).optional(),
  allowedDomains: AllowedDomains.default([]).optional(),
});

export const AppChange = z
  .strictObject({
    version: z
      .int({ error: 'Send the version of the app you read.' })
      .min(1, 'Send the version of the app you read.')
      .describe('The `version` of the app as last read: a change over a newer version is refused (409).'),
    name: AppName.optional(),
    allowedNetworks: AllowedNetworks.optional(),
    allowedDomains: AllowedDomains.optional(),
    state: z.enum(['active', 'disabled'], { error: 'The state is active or disabled.' }).optional().describe('disabled: every call with its key is refused.'),
  })
  .refine((change) => Object.keys(change).length > 1, { error: 'Change at least one of name, allowedNetworks, allowedDomains or state.' });

const graceMessage = `The grace period is a whole number of seconds from 0 to ${MAX_GRACE_SECONDS} (30 days).`;
export const KeyRotation = z.strictObject({
  graceSeconds: z
    .int({ error: graceMessage })
    .min(0, graceMessage)
    .max(MAX_GRACE_SECONDS, graceMessage)
    .optional()
    .describe('How long the replaced key keeps working; default 0: it stops at once.'),
});

export const NewToken = z.strictObject({
  name: z
    .string({ error: 'Give the token a name of at most 100 characters.' })
    .trim()
    .max(100, 'Give the token a name of at most 100 characters.')
    .optional()
    .describe('What the token is for; optional.'),
});

export const USAGE_RANGES = ['hour', 'day', 'month'] as const;
export const UsageQuery = z.object({
  range: z
    .enum(USAGE_RANGES, { error: 'The range is hour, day or month.' })
    .default('day')
    .describe('hour: the last 60 minutes by minute; day: the last 24 hours by hour; month: the last 30 days by UTC day.'),
});

// Answers.

const time = z.iso.datetime().describe('ISO 8601, UTC.');

export const Account = z.object({
  id: z.string().describe('`acc_` and 16 hex digits: the owner of its apps, tokens and webhooks.'),
  email: z.string(),
  createdAt: time,
});

export const SessionState = z.object({
  account: Account.nullable().describe('null: signed out.'),
  csrfToken: z.string().describe('Send it as X-CSRF-Token with every POST, PATCH, PUT and DELETE.'),
});

export const SignedIn = z.object({
  account: Account,
  csrfToken: z.string().describe('The new session’s CSRF token (the CSRF cookie holds it too).'),
});

export const NetworkList = z.object({
  networks: z.array(
    z.object({ id: z.string(), name: z.string(), nodeUrl: z.string().describe('`{node_url}` of the network; calls go to `{node_url}/v2/<key>`.') }),
  ),
});

export const App = z.object({
  id: z.string().describe('`app_` and 16 hex digits.'),
  name: z.string(),
  state: z.enum(['active', 'disabled']),
  allowedNetworks: z.array(z.string()).describe('Empty: every network.'),
  allowedDomains: z.array(z.string()).describe('Lowercase, internationalized names in punycode; empty: any origin.'),
  computeUnitsPerSecond: z.int(),
  monthlyComputeUnitQuota: z.int().nullable().describe('Compute units per UTC month; null: unlimited.'),
  createdAt: time,
  updatedAt: time,
  version: z.int().describe('+1 on every change; send it back with PATCH.'),
  previousKeyExpiresAt: time.nullable().describe('Until when the key replaced by the last rotation still works; null: it does not.'),
  endpoints: z
    .array(z.object({ network: z.string(), url: z.string().describe('`{node_url}/v2/`: append the key.') }))
    .describe('One per network the app may use.'),
});

export const AppList = z.object({
  apps: z.array(App).describe('Newest first.'),
  maxApps: z.int().min(1).describe('The most apps one account may have (DASHBOARD_APPS_PER_ACCOUNT); creating more answers 409 `limit_reached`.'),
});
export const OneApp = z.object({ app: App });
export const AppWithKey = z.object({ app: App, key: z.string().describe('The app’s key: 32 characters of [A-Za-z0-9_-].') });
export const AppKey = z.object({ key: z.string().describe('The app’s current key.') });

export const Usage = z.object({
  range: z.enum(USAGE_RANGES),
  bucket: z.enum(['minute', 'hour', 'day']),
  from: time.describe('Start of the first bucket.'),
  to: time.describe('End of the last bucket (exclusive).'),
  points: z
    .array(
      z.object({
        start: time.describe('Start of the bucket.'),
        network: z.string(),
        method: z.string(),
        requests: z.int(),
        computeUnits: z.int(),
        errors: z.int(),
      }),
    )
    .describe('Buckets with any usage, oldest first, then by network and method.'),
  errorsByCode: z
    .array(z.object({ code: z.int().describe('The JSON-RPC or HTTP error code answered.'), count: z.int() }))
    .describe('Errors over the whole range, by code.'),
});

export const AccountToken = z.object({
  id: z.string(),
  name: z.string().nullable(),
  createdAt: time,
  lastUsedAt: time.nullable(),
  revokedAt: time.nullable().describe('null while it works.'),
});
export const TokenList = z.object({ tokens: z.array(AccountToken).describe('Oldest first, revoked ones too.') });
export const CreatedToken = z.object({
  token: AccountToken,
  secret: z.string().describe('Send it as X-Crucible-Token. Shown this once: the server keeps only its hash.'),
});
