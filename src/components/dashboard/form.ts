// A dashboard form in the browser: checked with the backend's zod schema before it is sent, the
// server's refusals shown as sentences beside their fields (aria-describedby ties each to its
// control) or above the button, focus moved to the first error.
import type { z } from 'zod';
import type { ApiResult } from './api.ts';
import type { DashboardTexts } from './client-texts.ts';
import { formatIn, pageLang, part } from './dom.ts';
import { fieldErrorsOf, fieldOfPath, type FieldError } from './field-errors.ts';
import { fill } from './template.ts';

type CommonTexts = DashboardTexts['common'];

export class DashboardForm {
  readonly form: HTMLFormElement;
  private readonly fields: Map<string, HTMLElement>;
  private readonly error: HTMLElement;
  private readonly status: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly idleLabel: string;

  constructor(form: HTMLFormElement) {
    this.form = form;
    this.fields = new Map([...form.querySelectorAll<HTMLElement>('[data-field]')].map((field) => [field.dataset.field!, field]));
    this.error = part(form, 'form-error');
    this.status = part(form, 'form-status');
    this.button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    this.idleLabel = this.button.textContent ?? '';
  }

  /** Handles the form's submissions from now on, and enables its button (disabled in the page until then). */
  onSubmit(handle: () => Promise<void>): void {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void handle();
    });
    this.button.disabled = false;
  }

  /** The form's field names, as the API names its inputs. */
  fieldNames(): ReadonlySet<string> {
    return new Set(this.fields.keys());
  }

  /** The value of a text input, select or textarea by name. */
  value(name: string): string {
    const control = this.form.elements.namedItem(name);
    return control instanceof HTMLInputElement || control instanceof HTMLSelectElement || control instanceof HTMLTextAreaElement ? control.value : '';
  }

  /** The checked values of a group of checkboxes by name. */
  checked(name: string): string[] {
    return [...this.form.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="${name}"]`)].filter((box) => box.checked).map((box) => box.value);
  }

  clear(): void {
    for (const field of this.fields.values()) {
      const message = part(field, 'error');
      message.hidden = true;
      message.textContent = '';
      message.removeAttribute('lang');
      for (const control of controlsOf(field)) control.removeAttribute('aria-invalid');
    }
    this.error.hidden = true;
    this.error.textContent = '';
    this.status.textContent = '';
  }

  /** Shows each error beside its field and moves focus to the first, in the form's order. */
  showFieldErrors(errors: readonly FieldError[]): void {
    let first: HTMLElement | null = null;
    for (const [name, field] of this.fields) {
      const error = errors.find((candidate) => candidate.field === name);
      if (!error) continue;
      const message = part(field, 'error');
      message.textContent = error.message;
      message.hidden = false;
      if (error.lang) message.lang = error.lang;
      for (const control of controlsOf(field)) control.setAttribute('aria-invalid', 'true');
      first ??= controlsOf(field)[0] ?? null;
    }
    first?.focus();
  }

  /** A refusal that belongs to no field, above the button; announced at once (role=alert). */
  showError(message: string, lang?: string): void {
    this.error.textContent = message;
    this.error.hidden = false;
    if (lang) this.error.lang = lang;
    else this.error.removeAttribute('lang');
  }

  showStatus(message: string): void {
    this.status.textContent = message;
  }

  /** While a request is out: the button is disabled and says so. */
  busy(label: string | null): void {
    this.button.disabled = label !== null;
    this.button.textContent = label ?? this.idleLabel;
    this.form.setAttribute('aria-busy', String(label !== null));
  }

  /** Checks `input` with `schema`: true when it passes; otherwise its errors are shown. */
  check(schema: z.ZodType | undefined, input: unknown, messages: Readonly<Record<string, string>>): boolean {
    this.clear();
    if (!schema) return true;
    const parsed = schema.safeParse(input);
    if (parsed.success) return true;
    const { fieldErrors, other } = fieldErrorsOf(parsed.error.issues, this.fieldNames(), messages);
    if (other.length > 0) this.showError(other.join(' '), 'en');
    this.showFieldErrors(fieldErrors);
    return false;
  }

  /** A failed call in words: the server's field error beside its field, anything else above the button. */
  showFailure(result: Extract<ApiResult<unknown>, { ok: false }>, common: CommonTexts): void {
    const serverLang = pageLang() === 'en' ? undefined : 'en';
    const field = result.error.field === undefined ? null : fieldOfPath(result.error.field, this.fieldNames());
    if (field !== null) {
      this.showFieldErrors([{ field, message: result.error.message, ...(serverLang && { lang: serverLang }) }]);
      return;
    }
    this.showError(failureText(result, common));
    this.button.focus();
  }
}

/** The sentence for a failed call that no page handles on its own (the server's reason, in English, inside it). */
export function failureText(result: Extract<ApiResult<unknown>, { ok: false }>, common: CommonTexts): string {
  if (result.status === 0) return common.networkError;
  if (result.status === 429) return fill(common.tooManyAttempts, { when: formatIn(result.retryAfter ?? 60) });
  if (result.error.code === 'server_busy') return common.busy;
  return fill(common.failed, { reason: result.error.message });
}

function controlsOf(field: HTMLElement): HTMLElement[] {
  return [...field.querySelectorAll<HTMLElement>('input, select, textarea')];
}
