import { NotFoundError } from '../accounts/errors.ts';
import { AppInputError } from '../apps/errors.ts';

// The webhook store's errors, as values callers tell apart: the API maps them to 400 and 404, the
// CLI to exit codes. None of their messages holds a token or a signing key.

/** Input the store refuses (`field` names it, `reason` completes the sentence), as the app store's. */
export class WebhookInputError extends AppInputError {
  override name = 'WebhookInputError';
}

/** No such webhook or delivery for this owner: another owner's is answered the same way. */
export class WebhookNotFoundError extends NotFoundError {
  override name = 'WebhookNotFoundError';
}
