import type { z } from 'zod';
import { describeInputFailure } from '../api/input-failure.ts';
import { parseQuery } from '../api/query.ts';

// A keyed REST operation's query string read into its query schema, or the sentence that says why
// it cannot be (a 400 `bad_request`). Two ways, as each product's clients send queries: `plain`, as
// the site API reads them (a name given twice is a list), and `sdk`, as alchemy-sdk sends them:
// unknown parameters ignored, a list accepted as `name[]=` and as `name=` repeated (an empty
// value is no item), any other parameter given twice refused.

export type QueryRead = { ok: true; query: unknown } | { ok: false; problem: string };

export function readQuery(style: 'sdk' | 'plain', schema: z.ZodObject, search: string): QueryRead {
  return style === 'sdk' ? readSdkQuery(schema, search) : readPlainQuery(schema, search);
}

function readPlainQuery(schema: z.ZodObject, search: string): QueryRead {
  const parsed = parseQuery(search);
  if (!parsed.ok) return { ok: false, problem: describeInputFailure({ part: 'query', reason: 'unparseable', issues: [] }) };
  const result = schema.safeParse(parsed.value);
  if (result.success) return { ok: true, query: result.data };
  return { ok: false, problem: describeInputFailure({ part: 'query', reason: 'invalid', issues: result.error.issues, input: parsed.value }) };
}

export function readSdkQuery(schema: z.ZodObject, search: string): QueryRead {
  const parsed = parseQuery(search);
  if (!parsed.ok) return { ok: false, problem: 'The query string is not valid percent-encoding.' };
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed.value)) {
    const listName = `${name.replace(/\[\]$/, '')}[]`;
    if (Object.hasOwn(schema.shape, listName)) {
      // `name[]` and `name` both feed the list; an empty value (`name[]=`) is no item.
      const items = (Array.isArray(value) ? value : [value]).filter((item) => item !== '');
      input[listName] = [...((input[listName] as string[] | undefined) ?? []), ...items];
    } else if (Object.hasOwn(schema.shape, name)) {
      if (Array.isArray(value)) return { ok: false, problem: `${name} is given ${value.length} times; give it once.` };
      input[name] = value;
    }
  }
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, query: result.data };
  const issue = result.error.issues[0]!;
  // A rule across parameters (the schema's own check) says its whole sentence.
  if (issue.path.length === 0) return { ok: false, problem: issue.message };
  const name = String(issue.path[0]);
  const missing = issue.code === 'invalid_type' && input[name] === undefined;
  return { ok: false, problem: missing ? `${name} is required.` : `${name} ${describeIssue(issue)}` };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_big')
    return issue.origin === 'array'
      ? `may hold at most ${issue.maximum} items.`
      : issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters long.`
        : `must be at most ${issue.maximum}.`;
  if (issue.code === 'too_small')
    return issue.origin === 'string' ? `must be at least ${issue.minimum} character(s) long.` : `must be at least ${issue.minimum}.`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map(String).join(', ')}.`;
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'must be a whole number.';
  const message = issue.message.replace(/\.$/, '');
  return `${message.startsWith('must') ? '' : 'is invalid: '}${message}.`;
}
