// The account store's refusals, as values the dashboard tells apart.

/**
 * No such record (a token, a webhook, a delivery) for this owner: another owner's is answered the
 * same way, so an id tells nothing of who holds it. The dashboard and the webhook API answer it 404,
 * the CLI exits 1 with its message.
 */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
  constructor(what: string, id: string) {
    super(`There is no ${what} ${JSON.stringify(id)}.`);
  }
}

/** Sign-up with an email that already has an account. */
export class EmailTakenError extends Error {
  override name = 'EmailTakenError';
  constructor() {
    super('An account with this email already exists.');
  }
}

/** A password change whose current password is not the account's. */
export class WrongPasswordError extends Error {
  override name = 'WrongPasswordError';
  constructor() {
    super('The current password is wrong.');
  }
}
