// Browser side of the faucet page: inline validation, send, then status polling (docs/website.md#faucet-send, docs/website.md#faucet-status).
import type { FaucetError, FaucetSendSuccess, FaucetTransactionStatus } from '../../faucet/bodies.ts';
import { DEV_TURNSTILE_TOKEN } from '../../faucet/development-token.ts';

const addressPattern = /^0x[a-fA-F0-9]{40}$/;
const pollEveryMs = 2000;
const pollForMs = 5 * 60_000;

/** The form's texts in the page's locale (FaucetForm.astro): messages formatted at build, the countdown's around its value. */
export type FaucetFormTexts = Record<
  'addressInvalid' | 'captchaRequired' | 'sending' | 'pending' | 'success' | 'failed' | 'transaction' | 'viewOnExplorer' | 'networkError',
  string
> & {
  retryIn: [before: string, after: string];
};

declare global {
  interface Window {
    turnstile?: { reset(widget?: string | HTMLElement): void };
  }
}

/** "1:05:09" / "4:09" until `resetAt`. */
function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

export function mountFaucetForm(form: HTMLFormElement): void {
  const faucetId = form.dataset.faucetId!;
  const texts = JSON.parse(form.dataset.texts!) as FaucetFormTexts;
  const input = form.querySelector<HTMLInputElement>('input[name="address"]')!;
  const fieldError = form.querySelector<HTMLElement>('#faucet-address-error')!;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const result = form.querySelector<HTMLElement>('[data-result]')!;
  let countdown: ReturnType<typeof setInterval> | undefined;

  const showFieldError = (message: string | null) => {
    input.setAttribute('aria-invalid', String(message !== null));
    fieldError.hidden = message === null;
    fieldError.textContent = message ?? '';
  };
  const validate = () => {
    const value = input.value.trim();
    showFieldError(value === '' || addressPattern.test(value) ? null : texts.addressInvalid);
    return addressPattern.test(value);
  };
  input.addEventListener('blur', validate);
  input.addEventListener('input', () => {
    if (input.getAttribute('aria-invalid') === 'true') validate();
  });

  const line = (text: string, className?: string) => {
    const p = document.createElement('p');
    if (className) p.className = className;
    p.textContent = text;
    return p;
  };
  const transactionLine = (hash: string, explorerUrl?: string) => {
    const p = line(`${texts.transaction}: `);
    const code = document.createElement('code');
    code.textContent = hash;
    p.append(code);
    if (explorerUrl) {
      const a = document.createElement('a');
      a.href = explorerUrl;
      a.rel = 'noopener';
      a.target = '_blank';
      a.textContent = texts.viewOnExplorer;
      p.append(' · ', a);
    }
    return p;
  };
  const showError = (body: FaucetError) => {
    clearInterval(countdown);
    // Every error path, the status poll's and the missing check's included, ends in this state.
    result.dataset.state = 'error';
    result.replaceChildren(line(body.error ?? texts.networkError, 'error'));
    for (const extra of [body.hint, body.message, body.details]) if (extra) result.append(line(extra));
    if (body.resetAt) {
      const until = Date.parse(body.resetAt);
      const timer = line('');
      const tick = () => {
        const [before, after] = texts.retryIn;
        timer.textContent = `${before}${formatCountdown(until - Date.now())}${after}`;
        if (until <= Date.now()) clearInterval(countdown);
      };
      tick();
      countdown = setInterval(tick, 1000);
      result.append(timer);
    }
  };

  const captchaToken = (): string | null => {
    if (form.dataset.captcha === 'development') return form.querySelector<HTMLInputElement>('input[name="devCheck"]')?.checked ? DEV_TURNSTILE_TOKEN : null;
    return form.querySelector<HTMLInputElement>('input[name="cf-turnstile-response"]')?.value || null;
  };

  const pollStatus = async (hash: string, explorerUrl?: string) => {
    const started = Date.now();
    while (Date.now() - started < pollForMs) {
      await new Promise((r) => setTimeout(r, pollEveryMs));
      let body: FaucetTransactionStatus;
      try {
        const response = await fetch(`/api/faucets/${encodeURIComponent(faucetId)}/status?transactionHash=${hash}`, {
          headers: { accept: 'application/json' },
        });
        if (response.status === 429) {
          // Polls are limited per network of addresses: wait until the limit lifts, then go on.
          const { resetAt } = (await response.json()) as { resetAt?: string };
          await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(resetAt ?? '') - Date.now()) || pollEveryMs));
          continue;
        }
        if (!response.ok) return showError(await response.json());
        body = await response.json();
      } catch {
        continue; // a dropped poll is retried on the next tick
      }
      if (body.status === 'pending') continue;
      result.replaceChildren(
        line(body.status === 'success' ? texts.success : texts.failed, body.status === 'success' ? 'ok' : 'error'),
        transactionLine(hash, body.explorerUrl ?? explorerUrl),
      );
      result.dataset.state = body.status;
      return;
    }
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!validate()) return input.focus();
    const turnstileToken = captchaToken();
    if (!turnstileToken) return showError({ error: texts.captchaRequired });
    button.disabled = true;
    clearInterval(countdown); // an earlier refusal's countdown would keep ticking on a detached line
    result.dataset.state = 'sending';
    result.replaceChildren(line(texts.sending));
    try {
      const response = await fetch(`/api/faucets/${encodeURIComponent(faucetId)}/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ address: input.value.trim(), turnstileToken }),
      });
      if (!response.ok) return showError(await response.json());
      const body: FaucetSendSuccess = await response.json();
      result.dataset.state = 'pending';
      result.replaceChildren(line(texts.pending), transactionLine(body.transactionHash, body.explorerUrl));
      await pollStatus(body.transactionHash, body.explorerUrl);
    } catch {
      showError({ error: texts.networkError });
    } finally {
      button.disabled = false;
      window.turnstile?.reset(); // a token is good for one request
    }
  });
}
