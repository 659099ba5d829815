import type { InputFailure } from './operation.ts';

// The sentence of a request whose path, query or body could not be read or does not fit its
// operation's schema: the 400 `bad_request` of the site API's router and of the keyed REST door.

const partNames: Record<InputFailure['part'], string> = { params: 'The path', query: 'The query string', body: 'The request body' };

export function describeInputFailure(failure: InputFailure): string {
  const part = partNames[failure.part];
  switch (failure.reason) {
    case 'unparseable':
      return `${part} could not be parsed.`;
    case 'too_large':
      return `${part} is larger than this operation accepts.`;
    case 'too_deep':
      return `${part} nests arrays and objects more than ${failure.maxDepth} deep, the limit.`;
    case 'unsupported_media_type':
      return `${part} must be sent as application/json.`;
    case 'invalid': {
      const issue = failure.issues[0];
      const where = issue?.path.length ? ` (${issue.path.map(String).join('.')})` : '';
      return `${part} is not valid${where}: ${issue?.message ?? 'see the operation schema'}.`;
    }
  }
}
