import {
  isLiteralElement,
  isPluralElement,
  isPoundElement,
  isSelectElement,
  isTagElement,
  parse,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { z } from 'zod';
import { localeLang, type Locale } from './locales.ts';

// UI strings that take values are ICU messages (`{amount} {symbol}`, plurals, selects),
// validated when loaded and formatted with intl-messageformat in their own locale. Tags are
// text: a translator's `<b>` is shown, never read as markup that needs a formatter.

/** A UI string with placeholders; `Name` is the values it takes. */
export interface UiMessage<Name extends string> {
  readonly locale: Locale;
  /** The ICU message as written in the locale's file. */
  readonly source: string;
  readonly placeholders: readonly Name[];
}

type UiValues<Name extends string> = Record<Name, string | number>;

const icuOptions = { ignoreTag: true };

/** A UI string that takes no values; a brace there would be a placeholder nothing fills. */
export const uiText = z
  .string()
  .min(1)
  .refine((text) => !/[{}]/.test(text), 'takes no values, so it cannot have a {placeholder}');

/** A UI string in `locale` whose placeholders are exactly `names`, each used at least once. */
export function uiMessage<const Names extends readonly string[]>(locale: Locale, ...names: Names) {
  return z
    .string()
    .min(1)
    .transform((source, ctx): UiMessage<Names[number]> => {
      let used: Set<string>;
      try {
        used = placeholdersOf(parse(source, icuOptions));
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `is not an ICU message: ${(error as Error).message}` });
        return z.NEVER;
      }
      const unknown = [...used].filter((name) => !names.includes(name));
      const unused = names.filter((name) => !used.has(name));
      if (unknown.length) ctx.addIssue({ code: 'custom', message: `has unknown placeholders ${braced(unknown)}; it takes ${braced(names)}` });
      if (unused.length) ctx.addIssue({ code: 'custom', message: `leaves out ${braced(unused)}` });
      return { locale, source, placeholders: names };
    });
}

const braced = (names: readonly string[]) => names.map((name) => `{${name}}`).join(' ');

/** Every argument a message reads, in plural and select branches too. */
function placeholdersOf(elements: MessageFormatElement[], names = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (isLiteralElement(element) || isPoundElement(element)) continue;
    if (isTagElement(element)) {
      placeholdersOf(element.children, names);
      continue;
    }
    names.add(element.value);
    if (isPluralElement(element) || isSelectElement(element)) {
      for (const option of Object.values(element.options)) placeholdersOf(option.value, names);
    }
  }
  return names;
}

function formatterOf(message: UiMessage<string>): IntlMessageFormat {
  return new IntlMessageFormat(message.source, localeLang[message.locale], undefined, icuOptions);
}

/** The message with its values filled in, by the rules of its locale. */
export function formatUi<Name extends string>(message: UiMessage<Name>, values: UiValues<Name>): string {
  return String(formatterOf(message).format(values));
}

/**
 * The message formatted but for one value, which the browser fills in later (a countdown): the
 * text before and after it. The browser gets plain strings and needs no message parser.
 */
export function formatUiAround<Name extends string, Slot extends Name>(
  message: UiMessage<Name>,
  slot: Slot,
  values: UiValues<Exclude<Name, Slot>>,
): [before: string, after: string] {
  const marker = {};
  const parts = formatterOf(message).formatToParts<object>({ ...values, [slot]: marker });
  const at = parts.findIndex((part) => part.value === marker);
  if (at === -1 || parts.findLastIndex((part) => part.value === marker) !== at) {
    throw new Error(`UI message "${message.source}" (${message.locale}) must show {${slot}} exactly once to be filled in by the browser`);
  }
  const text = (from: typeof parts) => from.map((part) => part.value).join('');
  return [text(parts.slice(0, at)), text(parts.slice(at + 1))];
}
