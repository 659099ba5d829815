// Which field of a form an error belongs to, and in whose words (pure: unit-tested).

export interface FieldError {
  /** The form's field name (its `data-field`), as the API names the input. */
  field: string;
  message: string;
  /** The message's language when it is not the page's: the server's sentences are English. */
  lang?: string;
}

/** The field a path (`['filters', 'tokenIds', 3]`, or the server's `filters.tokenIds`) names: its longest prefix the form has. */
export function fieldOfPath(path: ReadonlyArray<PropertyKey> | string, fields: ReadonlySet<string>): string | null {
  const segments = typeof path === 'string' ? path.split('.') : path.map(String);
  for (let length = segments.length; length > 0; length -= 1) {
    const name = segments.slice(0, length).join('.');
    if (fields.has(name)) return name;
  }
  return null;
}

/**
 * One error per field the check refused, in the form's own words for that field (`messages`,
 * keyed by field name) where it has them, in the order the issues came. Issues that name no field
 * of the form come back under `null`, so nothing refused goes unsaid.
 */
export function fieldErrorsOf(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  fields: ReadonlySet<string>,
  messages: Readonly<Record<string, string>>,
): { fieldErrors: FieldError[]; other: string[] } {
  const fieldErrors: FieldError[] = [];
  const other: string[] = [];
  for (const issue of issues) {
    const field = fieldOfPath(issue.path, fields);
    if (field === null) other.push(issue.message);
    else if (!fieldErrors.some((error) => error.field === field)) fieldErrors.push({ field, message: messages[field] ?? issue.message });
  }
  return { fieldErrors, other };
}

/** Non-empty trimmed lines of a textarea: one domain, address or token id each. */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
