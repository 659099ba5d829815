// How many apps (or webhooks) an account has of the most it may have, under the list's heading:
// "Apps: 3 of 20 per account", and at the cap, that one must go before another is created.
import type { DashboardTexts } from './client-texts.ts';
import { formatNumber } from './dom.ts';
import { fill } from './template.ts';

export function showAccountCap(line: HTMLElement, texts: Pick<DashboardTexts['apps'], 'count' | 'atLimit'>, count: number, max: number): void {
  const counted = fill(texts.count, { count: formatNumber(count), max: formatNumber(max) });
  line.textContent = count >= max ? `${counted} ${texts.atLimit}` : counted;
  line.hidden = false;
}
