// The app store's errors, as values callers tell apart: the CLI maps them to exit codes, the
// dashboard to HTTP statuses. None of their messages holds a key.

/** Input the store refuses: `field` names it, `reason` completes the sentence "<field> <reason>". */
export class AppInputError extends Error {
  override name = 'AppInputError';
  readonly field: string;
  readonly reason: string;
  constructor(field: string, reason: string) {
    super(`${field} ${reason}.`);
    this.field = field;
    this.reason = reason;
  }
}

export class AppNotFoundError extends Error {
  override name = 'AppNotFoundError';
  readonly appId: string;
  constructor(appId: string) {
    super(`There is no app ${JSON.stringify(appId)}.`);
    this.appId = appId;
  }
}

/** The app changed since the version the caller read (a form saved over a newer one). */
export class StaleVersionError extends Error {
  override name = 'StaleVersionError';
  readonly appId: string;
  readonly expectedVersion: number;
  readonly currentVersion: number;
  constructor(appId: string, expectedVersion: number, currentVersion: number) {
    super(`App ${appId} is at version ${currentVersion}, not ${expectedVersion}: it changed since it was read.`);
    this.appId = appId;
    this.expectedVersion = expectedVersion;
    this.currentVersion = currentVersion;
  }
}

/** A stored key that the configured secret does not open: APP_KEY_SECRET differs from the one that sealed it. */
export class AppKeySealError extends Error {
  override name = 'AppKeySealError';
  constructor(appId: string) {
    super(`The key of app ${appId} cannot be opened with this APP_KEY_SECRET: it was sealed under another secret.`);
  }
}

/** The caps on what one account may have, by their names in the docs and in refusals (`limit.name`). */
export const ACCOUNT_LIMITS = ['appsPerAccount', 'webhooksPerAccount'] as const;
export type AccountLimit = (typeof ACCOUNT_LIMITS)[number];

/** An account that already has as many apps (or webhooks) as one account may: `max` is the cap. */
export class AccountLimitError extends Error {
  override name = 'AccountLimitError';
  readonly limit: AccountLimit;
  readonly max: number;
  constructor(limit: AccountLimit, max: number) {
    super(`This account has ${max} ${limit === 'appsPerAccount' ? 'apps' : 'webhooks'}, the most one account may have: delete one to create another.`);
    this.limit = limit;
    this.max = max;
  }
}
