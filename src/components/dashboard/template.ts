// Messages that take values reach the browser as templates: formatted at build in their locale,
// each value a marker the browser replaces (an email, a time it formats itself), so the page
// needs no message parser.

const open = '\uE000';
const close = '\uE001';
const markers = /\uE000([^\uE001]*)\uE001/g;

/** A message formatted but for its placeholders `Name`. */
export type Template<Name extends string> = string & { readonly placeholders?: Name };

/** What stands for the value `name` until the browser fills it in. */
export function marker(name: string): string {
  return `${open}${name}${close}`;
}

/** The template with its values. */
export function fill<Name extends string>(template: Template<Name>, values: Record<Name, string>): string {
  return template.replace(markers, (_, name: string) => values[name as Name] ?? '');
}
