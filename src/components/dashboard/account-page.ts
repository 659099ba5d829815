// The account page: password change (the backend's PasswordChange schema checked first), sign-out
// here or everywhere, and auth tokens: created (the secret shown once), listed, revoked.
import { NewToken, PasswordChange } from '../../dashboard/schemas.ts';
import type { DashboardTexts } from './client-texts.ts';
import { mountCopyButtons } from './code-blocks.ts';
import { confirmAction } from './confirm.ts';
import { el, formatTime, part } from './dom.ts';
import { DashboardForm, failureText } from './form.ts';
import { call, dashboardPage, markReady, requireAccount, showPageError, signOut, type DashboardPage } from './page.ts';
import type { AccountToken } from './types.ts';

type Texts = Pick<DashboardTexts, 'errors' | 'apps' | 'account'>;

export async function mountAccount(): Promise<void> {
  const page = dashboardPage<Texts>();
  const account = await requireAccount(page);
  const { account: texts, errors, common } = page.texts;
  part<HTMLInputElement>(page.root, 'username').value = account.email;
  mountCopyButtons(page.root, common);

  const password = new DashboardForm(part<HTMLFormElement>(page.root, 'change-password'));
  password.onSubmit(async () => {
    const input = { currentPassword: password.value('currentPassword'), newPassword: password.value('newPassword') };
    if (!password.check(PasswordChange, input, { currentPassword: errors.currentPassword, newPassword: errors.password })) return;
    password.busy(texts.changing);
    const result = await call<unknown>(page, 'POST', '/api/dashboard/password', input);
    password.busy(null);
    if (!result.ok) return password.showFailure(result, common);
    password.form.reset();
    password.showStatus(texts.changed);
  });

  part(page.root, 'account-sign-out').addEventListener('click', () => void signOut(page));
  part(page.root, 'sign-out-everywhere').addEventListener('click', async () => {
    const confirmed = await confirmAction({
      title: texts.signOutEverywhereConfirm,
      body: texts.sessionsIntro,
      confirm: texts.signOutEverywhere,
      cancel: common.cancel,
    });
    if (confirmed) await signOut(page, '/api/dashboard/sign-out-everywhere');
  });

  const tokens = await call<{ tokens: AccountToken[] }>(page, 'GET', '/api/dashboard/tokens');
  if (!tokens.ok) return showPageError(page, failureText(tokens, common));
  let list = tokens.body.tokens;
  const redraw = () =>
    showTokens(page, list, async (token) => {
      if (!(await confirmAction({ title: texts.revokeConfirm, body: texts.revokeConfirmBody, confirm: texts.revoke, cancel: common.cancel }))) return;
      const result = await call<null>(page, 'DELETE', `/api/dashboard/tokens/${encodeURIComponent(token.id)}`);
      if (!result.ok) return showPageError(page, failureText(result, common));
      const fresh = await call<{ tokens: AccountToken[] }>(page, 'GET', '/api/dashboard/tokens');
      if (fresh.ok) list = fresh.body.tokens;
      redraw();
    });
  redraw();

  const create = new DashboardForm(part<HTMLFormElement>(page.root, 'create-token'));
  create.onSubmit(async () => {
    const name = create.value('name').trim();
    const input = name === '' ? {} : { name };
    if (!create.check(NewToken, input, { name: errors.tokenName })) return;
    create.busy(texts.createToken);
    const result = await call<{ token: AccountToken; secret: string }>(page, 'POST', '/api/dashboard/tokens', input);
    create.busy(null);
    if (!result.ok) return create.showFailure(result, common);
    create.form.reset();
    list = [...list, result.body.token];
    redraw();
    part(page.root, 'token-secret').hidden = false;
    const secret = document.getElementById('token-secret')!;
    secret.textContent = result.body.secret;
    secret.closest('.notice')?.querySelector<HTMLButtonElement>('button[data-copy]')?.focus();
  });
  markReady(page);
}

function showTokens(page: DashboardPage<Texts>, tokens: readonly AccountToken[], revoke: (token: AccountToken) => Promise<void>): void {
  const texts = page.texts.account;
  const host = part(page.root, 'token-list');
  if (tokens.length === 0) {
    host.replaceChildren(el('p', {}, texts.noTokens));
    return;
  }
  const head = el(
    'tr',
    {},
    ...[texts.tokenName, page.texts.common.created, texts.lastUsed, page.texts.apps.state].map((label) => el('th', { scope: 'col' }, label)),
  );
  host.replaceChildren(
    el(
      'table',
      {},
      el('thead', {}, head),
      el(
        'tbody',
        {},
        ...tokens.map((token) => {
          const button = token.revokedAt === null ? el('button', { type: 'button', class: 'danger small' }, texts.revoke) : null;
          button?.addEventListener('click', () => void revoke(token));
          return el(
            'tr',
            { 'data-token': token.id },
            el('th', { scope: 'row' }, token.name ?? texts.unnamed),
            el('td', {}, formatTime(token.createdAt)),
            el('td', {}, token.lastUsedAt === null ? page.texts.common.never : formatTime(token.lastUsedAt)),
            el(
              'td',
              {},
              el('span', { class: `badge ${token.revokedAt === null ? 'ok' : 'off'}` }, token.revokedAt === null ? texts.active : texts.revoked),
              button ? ' ' : null,
              button,
            ),
          );
        }),
      ),
    ),
  );
}
