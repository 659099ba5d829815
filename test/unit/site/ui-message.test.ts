import { describe, expect, it } from 'vitest';
import { formatUi, formatUiAround, uiMessage, uiText } from '../../../src/site/ui-message.ts';

const problemsOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues.map((issue) => issue.message) ?? [];

describe('a UI message', () => {
  const drip = uiMessage('en', 'amount', 'symbol');

  it('takes exactly its placeholders, each used', () => {
    expect(drip.parse('Send {amount} {symbol}')).toEqual({ locale: 'en', source: 'Send {amount} {symbol}', placeholders: ['amount', 'symbol'] });
    expect(problemsOf(drip.safeParse('Send {amout} {symbol}'))).toEqual([
      'has unknown placeholders {amout}; it takes {amount} {symbol}',
      'leaves out {amount}',
    ]);
    expect(problemsOf(drip.safeParse('Send {symbol}'))).toEqual(['leaves out {amount}']);
  });

  it('is ICU: placeholders inside plural branches count, and a syntax error is named', () => {
    const countdown = uiMessage('en', 'count', 'unit');
    expect(countdown.safeParse('{count, plural, one {# {unit} left} other {# {unit}s left}}').success).toBe(true);
    expect(problemsOf(countdown.safeParse('{count, plural, one {# {unit} left}'))[0]).toMatch(/^is not an ICU message: /);
  });

  it('formats with the plural rules of its locale, and shows a tag as text', () => {
    const drips = uiMessage('en', 'count').parse('{count, plural, one {# drip} other {# drips}}');
    expect([formatUi(drips, { count: 1 }), formatUi(drips, { count: 3 })]).toEqual(['1 drip', '3 drips']);
    expect(formatUi(uiMessage('ja', 'name').parse('<b>{name}</b> フォーセット'), { name: 'Base' })).toBe('<b>Base</b> フォーセット');
  });

  it('is split around a value the browser fills in, the others formatted', () => {
    const retry = uiMessage('pt-BR', 'time', 'name').parse('Você poderá pedir {name} de novo em {time}.');
    expect(formatUiAround(retry, 'time', { name: 'ETH' })).toEqual(['Você poderá pedir ETH de novo em ', '.']);
  });
});

describe('a UI text', () => {
  it('takes no values, so a placeholder in it is refused', () => {
    expect(uiText.safeParse('Search').success).toBe(true);
    expect(problemsOf(uiText.safeParse('Search {site}'))).toEqual(['takes no values, so it cannot have a {placeholder}']);
  });
});
