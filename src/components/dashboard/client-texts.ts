import type { Locale } from '../../site/locales.ts';
import type { UiMessage } from '../../site/ui-message.ts';
import { formatUi, ui, type UiStrings } from '../../site/ui.ts';
import { marker, type Template } from './template.ts';

// The dashboard's strings as its scripts get them (data-texts): text as is, messages as templates.

type ClientTexts<T> = T extends UiMessage<infer Name> ? Template<Name> : T extends string ? string : { [K in keyof T]: ClientTexts<T[K]> };

export type DashboardTexts = ClientTexts<UiStrings['dashboard']>;

function isMessage(value: object): value is UiMessage<string> {
  return 'source' in value && 'placeholders' in value;
}

function toClient(value: unknown): unknown {
  if (typeof value === 'string') return value;
  const object = value as object;
  if (isMessage(object)) return formatUi(object, Object.fromEntries(object.placeholders.map((name) => [name, marker(name)])));
  return Object.fromEntries(Object.entries(object).map(([key, child]) => [key, toClient(child)]));
}

/** The blocks of the locale's dashboard strings a page's script uses. */
export function dashboardTexts<const Block extends keyof DashboardTexts>(locale: Locale, blocks: readonly Block[]): Pick<DashboardTexts, Block> {
  const all = ui[locale].dashboard;
  return Object.fromEntries(blocks.map((block) => [block, toClient(all[block])])) as Pick<DashboardTexts, Block>;
}
