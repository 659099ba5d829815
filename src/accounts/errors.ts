// The account store's refusals, as values the dashboard tells apart.

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
